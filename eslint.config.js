// One linter for the whole tree. Conventions that matter live here, not in reviewers' memory.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

// The shared package is imported by its name and index only (`@pm/shared`), never by path.
const sharedByPath = {
  group: ['**/shared/src', '**/shared/src/**', '@pm/shared/*'],
  message: "Import from '@pm/shared' (the package index), not from shared's files by path.",
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/data/**', 'api/drizzle/**', 'coverage/**', '.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
      'no-restricted-imports': ['error', { patterns: [sharedByPath] }],
    },
  },
  {
    files: ['client/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Screens never call fetch: the data-access layer in client/src/modules/api does (STYLE.md).
      'no-restricted-globals': ['error', { name: 'fetch', message: 'Use the data-access layer (modules/api).' }],
      // The validator stays out of the console's bundle: calls are typed from shared's
      // declarations with `import type` (modules/api/call.ts).
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'zod',
              message: 'No validator in the console: type calls from @pm/shared.',
              allowTypeImports: true,
            },
          ],
          patterns: [sharedByPath],
        },
      ],
    },
  },
  {
    files: ['client/src/modules/api/**'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // Layering (api/src/README.md): a route validates and calls a service; only services and
    // repositories reach the database (drizzle, db/*, *.repository), so a handler never holds SQL.
    files: ['api/src/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['drizzle-orm', 'drizzle-orm/*', '**/db', '**/db/*', '**/db/**', '**/*.repository'],
              message: 'Route files call a service; database code (drizzle, db/*, repositories) stays below it.',
            },
          ],
        },
      ],
    },
  },
);
