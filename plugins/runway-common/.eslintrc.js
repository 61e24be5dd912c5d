module.exports = require('@backstage/cli/config/eslint-factory')(__dirname, {
  rules: {
    // TypeBox's builder API is capitalised (Type.Object, TypeCompiler.Compile, checker.Check).
    'new-cap': 'off',
  },
  overrides: [
    {
      // The generator and the benchmarks are command-line scripts that report on stdout.
      files: ['scripts/**', 'bench/**'],
      rules: { 'no-console': 'off' },
    },
  ],
});
