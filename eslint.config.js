import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.printwire/**',
      '**/.printwire/**',
      'test/fixtures/**',
      'shared/fonts/**',
      'docs/**',
    ],
  },
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
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-control-regex': 'off',
    },
  },
  {
    // shared is pure code but for documents/ (pdf.js and its native canvas, sharp, and the
    // browser HTML is laid out by): the cloud and the agent load those only when a document is
    // drawn (.dependency-cruiser.mjs). Tests may use sharp to read pictures back.
    files: ['shared/src/**/*.ts'],
    ignores: ['shared/src/documents/**', 'shared/src/**/*.test.ts', 'shared/src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'sharp',
                'pdfjs-dist',
                'pdfjs-dist/*',
                '@napi-rs/*',
                'puppeteer-core',
                'puppeteer-core/*',
                'playwright-core',
              ],
              message: 'native code and the browser live in shared/src/documents/ only',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
