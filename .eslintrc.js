module.exports = {
  root: true,
  // Every package's .eslintrc.js extends this one: the import boundaries
  // between the layers hold everywhere (see "How the parts fit" in README.md).
  plugins: ['@runway-portal'],
  rules: {
    '@runway-portal/layers': 'error',
  },
};
