import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.tools/', '.data/', 'dist/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    // CommonJS configuration files (dependency-cruiser reads .cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
  {
    // A promise nobody awaits loses its errors (and, in a workflow, its determinism): every one is awaited,
    // returned, or marked `void` on purpose. Temporal's samples lint the same way.
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: { '@typescript-eslint/no-floating-promises': 'error' },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no wall clock, no randomness.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'postgres', 'koa', '@temporalio/client', '@temporalio/worker', 'pino'] }],
    },
  },
  {
    // The API and the indexers talk to workflows through their messages only; workflow code is the worker's.
    files: ['api/**/*.ts', 'indexers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/workflows/*', '!**/workflows/messages', '!**/workflows/searchAttributes'],
              message:
                'Import workflows/messages.ts (signals, updates, queries and their types) or workflows/searchAttributes.ts, never workflow code.',
            },
          ],
        },
      ],
    },
  },
);
