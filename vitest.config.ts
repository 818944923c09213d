import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One command (`npm test`), in two rounds:
// 1. e2e: Playwright driving Debian's Chromium against the production build served by workerd,
//    two files at a time, each worker on its own shop (tests/support/shop-server.ts): a browser
//    test mostly waits on Chromium, workerd and the database in turn, which leaves a core idle;
// 2. unit (pure rules beside their source) and integration (routers and the local Neon endpoint
//    through the real driver, a fresh database per test file: PGlite by default, PostgreSQL when
//    TEST_DATABASE_URL is set), a worker per core.
// A run must end with its tests' verdict. If this process ever runs out of things to wait on
// first (a global setup awaiting a handle no one holds: it happened while a PGlite process was
// being stopped), Node ends it with code 0 and no summary, a green run that tested nothing.
let runEnded = false;
process.on('exit', (code) => {
  if (runEnded || code !== 0) return;
  console.error('npm test: the run ended before its tests did (nothing left to wait on): failed');
  process.exitCode = 1;
});

export default defineConfig({
  test: {
    reporters: [
      'default',
      {
        onTestRunEnd: () => {
          runEnded = true;
        },
      },
    ],
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
