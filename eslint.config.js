// Lint rules that keep the house style (docs: ../shared/STYLE.md → CONTRIBUTING.md).
// Formatting is Prettier's job; eslint-config-prettier switches off every rule that would argue with it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

// The layer rule: src/core/ (the domain and its ports) imports only src/core/. Adapters (src/adapters/)
// and the composition root (the files of src/ itself) stand above it. A core file d folders below
// src/ reaches the root by exactly d "../", so the rule is written once per depth.
const coreLayer = (depth) => ({
  files: [`src/core/${'*/'.repeat(depth - 1)}*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: '(^|/)adapters/',
            message: 'core/ never imports adapters/: a port in core/ports/ says what it needs (docs/architecture.md).',
          },
          {
            regex: `^(\\.\\./){${depth}}[^/]+$`,
            message: 'core/ never imports the composition root (src/*.ts): it is handed what it needs.',
          },
        ],
      },
    ],
  },
});

// Adapters (src/adapters/) stand below the composition root too: what they need from it (the
// settings, the node's own state) is handed to them or named by a port, so none imports src/*.ts.
const adapterLayer = (depth) => ({
  files: [`src/adapters/${'*/'.repeat(depth - 1)}*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            regex: `^(\\.\\./){${depth}}[^/]+$`,
            message: 'adapters/ never import the composition root (src/*.ts): it hands them what they need (docs/architecture.md).',
          },
        ],
      },
    ],
  },
});

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'node_modules/',
      'data/',
      'test-output/',
      '.bench-*/',
      'coverage/',
      'contexts/',
      'examples/',
      'test/fixtures/',
      'test/conformance/**/*.js',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The code is ESM with `import type` for types only; keep it so (and fixable).
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // Unused names: `_` marks a parameter kept for its position.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // A promise nobody awaits loses its error; Express 5 awaits async handlers, so those may return promises.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      // Result unions are switched on exhaustively.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // With noUncheckedIndexedAccess (tsconfig) a `!` after an index is needed; one the types make redundant is not.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Switched off, each for a reason measured on this code base:
      // - async functions without await keep an interface's Promise shape; dropping `async` changes throw into reject.
      '@typescript-eslint/require-await': 'off',
      // - N3's DataFactory is destructured everywhere (`const { namedNode } = DataFactory`); its functions use no `this`.
      '@typescript-eslint/unbound-method': 'off',
      // - jsonld's typings: with the options cast (`as never`) they resolve to the callback overloads and return void,
      //   so every correct `await jsonld.toRDF(…)` would be reported.
      '@typescript-eslint/await-thenable': 'off',
      // - values from JSON.parse, req.body, JWT payloads and framed JSON-LD are `any` at the boundary by design;
      //   writing `any` yourself is still an error in src/ (no-explicit-any).
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // - input checks reject NUL and other control characters on purpose.
      'no-control-regex': 'off',
      eqeqeq: ['error', 'smart'],
      'prefer-const': 'error',
      'no-var': 'error',
      'object-shorthand': 'error',
    },
  },
  ...[1, 2, 3, 4, 5].map(coreLayer),
  ...[1, 2, 3, 4, 5].map(adapterLayer),
  {
    // Sizes (STYLE.md: small modules with one job, files under 300 lines), kept by lint, not by memory.
    // A function's bound is 120 lines of code (blank lines and comments not counted); the two
    // route-and-wiring tables below get their own ceiling, so that they cannot grow unseen either
    // (the lengths they had when the bounds were set: bench/results/2026-12-07-function-sizes.md).
    files: ['src/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/node.ts', 'src/adapters/http/pages/console/console-routes.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 190, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Tests, benches and scripts take JSON as it comes; `any` there is deliberate.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // chai's property assertions (`expect(x).to.be.true`) are expressions by design.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
  {
    // Plain JavaScript: build scripts and the browser pages' scripts, checked without types.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    // Scripts the pages load in the browser: plain ES5 scripts in an IIFE, kept so on purpose.
    files: ['public/**/*.js'],
    rules: { 'no-var': 'off', 'object-shorthand': 'off' },
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        SwaggerUIBundle: 'readonly',
        Yasgui: 'readonly',
      },
    },
  },
  prettier,
);
