module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // The browser suites are factories of tests that browser.integration.test.ts runs on its
      // one shared local system: they export their describe function.
      files: ['src/suites/**'],
      rules: { 'jest/no-export': 'off' },
    },
  ],
});
