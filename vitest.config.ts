import { defineConfig } from 'vitest/config';

// One test run for the whole tree: each package is a project (`npm run test:unit`).
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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'gateway',
          root: 'gateway',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
