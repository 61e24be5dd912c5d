module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  overrides: [
    {
      // The fault suite is a factory of tests that system.integration.test.ts runs on its local
      // system: it exports its describe function.
      files: ['src/faultsSuite.ts'],
      rules: { 'jest/no-export': 'off' },
    },
  ],
});
