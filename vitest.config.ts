import { defineConfig } from 'vitest/config';

// One test run for the whole tree: each package is a project (`npm run test:unit`).
//
// Suites that need a server engine say so in their file name and run only when it is configured:
// `*.postgres.test.ts` with TEST_DATABASE_URL, `*.redis.test.ts` with TEST_REDIS_URL (CI sets both;
// `npm test` prints which engines ran). Every other suite runs everywhere, and a skipped test
// fails the run (scripts/test.mjs).
const needsEngine = [
  // `*.postgres.redis.test.ts` needs both.
  ...(process.env.TEST_DATABASE_URL ? [] : ['**/*.postgres.test.ts', '**/*.postgres.redis.test.ts']),
  ...(process.env.TEST_REDIS_URL ? [] : ['**/*.redis.test.ts']),
];
const exclude = ['**/node_modules/**', ...needsEngine];

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'shared', root: 'shared', include: ['src/**/*.test.ts'] } },
      { test: { name: 'locales', root: 'locales', include: ['**/*.test.ts'] } },
      {
        test: {
          name: 'api',
          root: 'api',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude,
          // Every answer is checked against its declared response schema (api/src/http/create-app.ts).
          env: { API_CHECK_ANSWERS: '1' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'gateway',
          root: 'gateway',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude,
          env: { API_CHECK_ANSWERS: '1' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: 'client/vite.config.ts',
        test: { name: 'client', root: 'client', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
      },
      {
        test: {
          name: 'e2e',
          root: 'tests',
          include: ['**/*.test.ts'],
          exclude,
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
