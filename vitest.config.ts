import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One command (`npm test`), in two rounds:
// 1. e2e: Playwright driving Debian's Chromium against the production build served by workerd,
//    two files at a time, each worker on its own shop (tests/support/shop-server.ts): a browser
//    test mostly waits on Chromium, workerd and the database in turn, which leaves a core idle;
// 2. unit (pure rules beside their source) and integration (routers and the local Neon endpoint
//    through the real driver, a fresh database per test file: PGlite by default, PostgreSQL when
//    TEST_DATABASE_URL is set), a worker per core.
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{core,server,db,app}/**/*.test.{ts,tsx}'],
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/database-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/shop-server.ts'],
          // A shop per worker: tests/support/shop-server.ts starts as many as this.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          sequence: { groupOrder: 0 },
        },
      },
    ],
  },
});
