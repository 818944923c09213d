import { defineConfig } from 'vitest/config';

// Three projects, one command (`npm test`):
// - unit: pure rules beside their source;
// - integration: routers and the local Neon endpoint through the real driver, a fresh database
//   per test file (PGlite by default, PostgreSQL when TEST_DATABASE_URL is set);
// - e2e: Playwright driving Debian's Chromium against the production build served by workerd.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{core,server,db,app}/**/*.test.{ts,tsx}'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/database-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/shop-server.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
