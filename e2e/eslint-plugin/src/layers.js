// @ts-check
/**
 * The `layers` rule: a package imports only packages of its own or a lower
 * layer, production code imports no test tooling, and a published package's
 * production code imports no private package. Each workspace package
 * declares its layer in its package.json as `"runway": {"layer": "..."}`.
 */
const fs = require('node:fs');
const path = require('node:path');

/** The layers, lowest first: a package may import its own layer and the ones before it. */
const LAYERS = ['api', 'runtime', 'controllers', 'portal', 'tooling'];

/** The layer whose packages are test and bench tooling (clusters, simulators, helpers). */
const TOOLING = 'tooling';

/**
 * Files that are tests, test helpers or benchmarks (package-relative, `/`
 * separated): they may import test tooling. A package's `testing` entry point
 * (`src/testing.ts`, `src/testing/`, `src/testingIndex.ts`) is test tooling itself.
 */
const TEST_FILE =
  /(^|\/)(bench|__testUtils__|__fixtures__|__mocks__)\/|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)setupTests\.[jt]sx?$|^src\/testing(Index)?(\.[jt]sx?$|\/)/;

/**
 * @typedef {{ name: string, dir: string, layer: string | undefined, isPrivate: boolean }} WorkspacePackage
 * @typedef {{ root: string, byName: Map<string, WorkspacePackage>, byDir: Map<string, WorkspacePackage> }} Workspace
 */

/** @param {string} file */
function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/**
 * The folders a root package.json's `workspaces` name: exact folders and
 * `folder/*` patterns (the only forms this repository uses).
 * @param {string} root
 * @param {string[]} patterns
 */
function workspaceDirs(root, patterns) {
  return patterns.flatMap(pattern => {
    if (!pattern.endsWith('/*')) return [path.join(root, pattern)];
    const parent = path.join(root, pattern.slice(0, -2));
    if (!fs.existsSync(parent)) return [];
    return fs
      .readdirSync(parent, { withFileTypes: true })
      .filter(entry => entry.isDirectory())
      .map(entry => path.join(parent, entry.name));
  });
}

/** @type {Map<string, Workspace | null>} */
const workspaceCache = new Map();

/**
 * The workspace (root package.json with `workspaces`) that holds `dir`, with
 * every package's name and layer; null outside a workspace.
 * @param {string} dir
 * @returns {Workspace | null}
 */
function findWorkspace(dir) {
  const cached = workspaceCache.get(dir);
  if (cached !== undefined) return cached;
  let found = null;
  const manifest = path.join(dir, 'package.json');
  const workspaces = fs.existsSync(manifest)
    ? readJson(manifest).workspaces
    : undefined;
  if (workspaces) {
    const patterns = Array.isArray(workspaces)
      ? workspaces
      : workspaces.packages ?? [];
    found = { root: dir, byName: new Map(), byDir: new Map() };
    for (const pkgDir of workspaceDirs(dir, patterns)) {
      const pkgManifest = path.join(pkgDir, 'package.json');
      if (!fs.existsSync(pkgManifest)) continue;
      const pkg = readJson(pkgManifest);
      const entry = {
        name: pkg.name,
        dir: pkgDir,
        layer: pkg.runway?.layer,
        isPrivate: pkg.private === true,
      };
      found.byName.set(pkg.name, entry);
      found.byDir.set(pkgDir, entry);
    }
  } else if (path.dirname(dir) !== dir) {
    found = findWorkspace(path.dirname(dir));
  }
  workspaceCache.set(dir, found);
  return found;
}

/**
 * The package an import names: `@scope/name` or `name`, and the subpath after it.
 * @param {string} source
 */
function packageOf(source) {
  const parts = source.split('/');
  const count = source.startsWith('@') ? 2 : 1;
  return {
    name: parts.slice(0, count).join('/'),
    subpath: parts.slice(count).join('/'),
  };
}

/**
 * What is wrong with one import from a file of package `from`, or undefined
 * if nothing is. Pure apart from the workspace it is given.
 * @param {Workspace} workspace
 * @param {WorkspacePackage} from
 * @param {boolean} isTestFile
 * @param {string} source
 * @returns {{ messageId: string, data: Record<string, string> } | undefined}
 */
function checkImport(workspace, from, isTestFile, source) {
  const target = workspace.byName.get(packageOf(source).name);
  if (!target || target === from) return undefined;
  const data = {
    source,
    target: target.name,
    targetLayer: String(target.layer),
    from: from.name,
    fromLayer: String(from.layer),
    order: LAYERS.join(' < '),
  };
  if (!target.layer || !LAYERS.includes(target.layer))
    return { messageId: 'targetWithoutLayer', data };
  const isTooling =
    target.layer === TOOLING || packageOf(source).subpath === 'testing';
  if (isTooling && from.layer !== TOOLING)
    return isTestFile ? undefined : { messageId: 'testTooling', data };
  if (
    LAYERS.indexOf(target.layer) >
    LAYERS.indexOf(/** @type {string} */ (from.layer))
  )
    return { messageId: 'upward', data };
  // A published package that needs an unpublished one cannot be installed by anyone else.
  if (!from.isPrivate && target.isPrivate && !isTestFile)
    return { messageId: 'privateFromPublished', data };
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        'A package imports only packages of its own or a lower layer; production code imports no test tooling',
    },
    schema: [],
    messages: {
      upward:
        "'{{source}}' is in the {{targetLayer}} layer, above {{from}}'s {{fromLayer}} layer ({{order}}): move what both need down a layer, or pass it in from above.",
      testTooling:
        "'{{source}}' is test tooling; production code of {{from}} must not import it. Import it only from tests, __testUtils__/, bench/ or the package's src/testing entry point.",
      targetWithoutLayer:
        '{{target}} declares no known layer: add "runway": {"layer": "<{{order}}>"} to its package.json.',
      withoutLayer:
        '{{from}} declares no known layer: add "runway": {"layer": "<{{order}}>"} to its package.json (one of {{order}}).',
      privateFromPublished:
        '{{target}} is a private package; {{from}} is published, so its production code may import only published packages: publish {{target}} (remove "private": true, keep publishConfig) or move what {{from}} needs into a published package.',
      outsidePackage:
        "'{{source}}' reaches into another package's folder: import it by its package name ({{target}}).",
    },
  },
  create(context) {
    const filename = context.filename ?? context.getFilename();
    const workspace = findWorkspace(path.dirname(filename));
    if (!workspace) return {};
    let from;
    for (
      let dir = path.dirname(filename);
      dir.startsWith(workspace.root) && !from;
      dir = path.dirname(dir)
    )
      from = workspace.byDir.get(dir);
    if (!from) return {};
    const fromPackage = from;
    const relative = path
      .relative(from.dir, filename)
      .split(path.sep)
      .join('/');
    const isTestFile = TEST_FILE.test(relative);
    const order = LAYERS.join(' < ');
    let reportedWithoutLayer = false;

    /** @param {import('estree').Node} node @param {unknown} value */
    const check = (node, value) => {
      if (typeof value !== 'string') return;
      if (!fromPackage.layer || !LAYERS.includes(fromPackage.layer)) {
        if (!reportedWithoutLayer)
          context.report({
            node,
            messageId: 'withoutLayer',
            data: { from: fromPackage.name, order },
          });
        reportedWithoutLayer = true;
        return;
      }
      if (value.startsWith('.')) {
        const resolved = path.resolve(path.dirname(filename), value);
        if (resolved.startsWith(fromPackage.dir + path.sep)) return;
        const owner = [...workspace.byDir.values()].find(p =>
          (resolved + path.sep).startsWith(p.dir + path.sep),
        );
        if (owner)
          context.report({
            node,
            messageId: 'outsidePackage',
            data: { source: value, target: owner.name },
          });
        return;
      }
      const problem = checkImport(workspace, fromPackage, isTestFile, value);
      if (problem) context.report({ node, ...problem });
    };

    return {
      ImportDeclaration: node => check(node.source, node.source.value),
      ExportNamedDeclaration: node =>
        node.source && check(node.source, node.source.value),
      ExportAllDeclaration: node => check(node.source, node.source.value),
      ImportExpression: node =>
        node.source.type === 'Literal' && check(node.source, node.source.value),
      CallExpression: node => {
        const [arg] = node.arguments;
        const callee = node.callee;
        const isRequire =
          (callee.type === 'Identifier' && callee.name === 'require') ||
          (callee.type === 'MemberExpression' &&
            callee.object.type === 'Identifier' &&
            callee.object.name === 'jest' &&
            callee.property.type === 'Identifier' &&
            /^(requireActual|mock|requireMock)$/.test(callee.property.name));
        if (isRequire && arg?.type === 'Literal') check(arg, arg.value);
      },
    };
  },
};

module.exports = { rule, LAYERS, TEST_FILE };
