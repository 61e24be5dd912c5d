module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  // The fixture repository breaks the layering on purpose: the rule's test lints it.
  ignorePatterns: ['src/__fixtures__/**'],
});
