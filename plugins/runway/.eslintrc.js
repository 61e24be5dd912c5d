module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // The benchmark and the screenshot script are command-line tools that report on stdout.
      files: ['scripts/**', 'bench/**'],
      rules: { 'no-console': 'off' },
    },
  ],
});
