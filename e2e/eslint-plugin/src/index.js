/**
 * The repository's own ESLint rules, loaded by the root .eslintrc.js as the
 * `@runway-portal` plugin.
 */
const { rule: layers } = require('./layers');

module.exports = { rules: { layers } };
