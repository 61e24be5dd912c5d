module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Benchmarks are command-line scripts that report on stdout.
      files: ['bench/**'],
      rules: { 'no-console': 'off' },
    },
    {
      // Integration tests assert by polling: `until` throws when its condition never holds.
      files: ['**/*.integration.test.ts'],
      rules: {
        'jest/expect-expect': [
          'warn',
          { assertFunctionNames: ['expect', 'until'] },
        ],
      },
    },
  ],
});
