module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Benchmarks are command-line scripts that report on stdout.
      files: ['bench/**'],
      rules: { 'no-console': 'off' },
    },
    {
      // The conformance suite is a factory of tests that providers' integration tests call: it
      // exports, asserts by polling (`eventually` throws when its condition never holds), and,
      // being test tooling that is never built, finds the repository's CRDs from __dirname.
      files: ['src/testing/conformance.ts'],
      rules: {
        'jest/no-export': 'off',
        'jest/expect-expect': [
          'warn',
          { assertFunctionNames: ['expect', 'eventually'] },
        ],
        'no-restricted-syntax': 'off',
      },
    },
  ],
});
