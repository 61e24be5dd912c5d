module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // Benchmarks are command-line scripts that report on stdout.
      files: ['bench/**'],
      rules: { 'no-console': 'off' },
    },
  ],
});
