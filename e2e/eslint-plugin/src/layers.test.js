const path = require('node:path');
const { ESLint } = require('eslint');
const plugin = require('./index');

const fixtureRoot = path.join(__dirname, '__fixtures__', 'repo');

/** Lints the fixture repository with only the layers rule; returns `file: messageId@line` per problem. */
async function lintFixtures() {
  const eslint = new ESLint({
    cwd: fixtureRoot,
    useEslintrc: false,
    plugins: { '@runway-portal': plugin },
    overrideConfig: {
      parser: require.resolve('@typescript-eslint/parser'),
      parserOptions: { ecmaVersion: 2022, sourceType: 'module' },
      plugins: ['@runway-portal'],
      rules: { '@runway-portal/layers': 'error' },
    },
  });
  const results = await eslint.lintFiles(['packages/**/*.ts']);
  return results.flatMap(result =>
    result.messages.map(
      m =>
        `${path.relative(fixtureRoot, result.filePath)}: ${
          m.messageId ?? m.message
        }@${m.line}`,
    ),
  );
}

describe('layers', () => {
  let problems;
  beforeAll(async () => {
    problems = await lintFixtures();
  });

  it('reports every violation in the fixture repository, and nothing else', () => {
    expect(problems.sort()).toEqual(
      [
        // runtime importing, re-exporting and lazily loading the controllers and the portal
        'packages/runtime/src/upward.ts: upward@2',
        'packages/runtime/src/upward.ts: upward@3',
        'packages/runtime/src/upward.ts: upward@4',
        // production code importing a tooling package, and requiring a testing entry point
        'packages/controller/src/production.ts: testTooling@2',
        'packages/controller/src/production.ts: testTooling@3',
        // a test may use tooling, but not import (or mock) a higher layer
        'packages/controller/src/reconcile.test.ts: upward@4',
        'packages/controller/src/reconcile.test.ts: upward@5',
        // a relative path into another package
        'packages/portal/src/reach.ts: outsidePackage@2',
        // a published package importing a private one (its test may)
        'packages/portal/src/privateImport.ts: privateFromPublished@2',
        // a package without a layer, and an import of it
        'packages/unlayered/src/index.ts: withoutLayer@1',
        'packages/portal/src/unlayeredImport.ts: targetWithoutLayer@1',
      ].sort(),
    );
  });

  it.each([
    'packages/runtime/src/allowed.ts',
    'packages/controller/src/__testUtils__/cluster.ts',
    'packages/controller/src/testing.ts',
    'packages/controller/bench/reconcile.bench.ts',
    'packages/tooling/src/index.ts',
    'packages/portal/src/privateImport.test.ts',
  ])('allows the imports of %s', file => {
    expect(problems.filter(p => p.startsWith(`${file}:`))).toEqual([]);
  });

  it('names the layers and the way out in its message', async () => {
    const eslint = new ESLint({
      cwd: fixtureRoot,
      useEslintrc: false,
      plugins: { '@runway-portal': plugin },
      overrideConfig: {
        parser: require.resolve('@typescript-eslint/parser'),
        plugins: ['@runway-portal'],
        rules: { '@runway-portal/layers': 'error' },
      },
    });
    const [result] = await eslint.lintFiles(['packages/runtime/src/upward.ts']);
    expect(result.messages[0].message).toBe(
      "'@fixture/controller' is in the controllers layer, above @fixture/runtime's runtime layer (api < runtime < controllers < portal < tooling): move what both need down a layer, or pass it in from above.",
    );
  });
});
