import fs from 'node:fs';
import path from 'node:path';
import { CATALOG, DEFAULT_NAMESPACE, defaultDeployDir } from './catalog';
import type { FileSource } from './kustomize';
import { objectId, renderKustomization } from './kustomize';
import { INSTALL_YAML, loadCatalogBundle, renderInstallYaml } from './load';
import { buildPlan, describeObject, outOfClusterPlan } from './plan';

const DEPLOY = defaultDeployDir();

function memoryFiles(files: Record<string, string>): FileSource {
  const dirs = new Set(
    Object.keys(files).flatMap(f =>
      f
        .split('/')
        .slice(1, -1)
        .map((_, i, parts) => `/${parts.slice(0, i + 1).join('/')}`),
    ),
  );
  return {
    readFile: f => {
      if (!(f in files)) throw new Error(`no ${f}`);
      return files[f];
    },
    isDirectory: f => dirs.has(f),
    exists: f => f in files || dirs.has(f),
  };
}

const cm = (name: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: a\n`;

describe('the bundles in controllers/deploy', () => {
  it.each(CATALOG.map(e => [e.name, e]))(
    '%s installs alone on a fresh cluster: namespace, CRDs and its controller',
    (_name, entry) => {
      const { objects } = loadCatalogBundle(entry, DEPLOY);
      const kinds = objects.map(o => o.kind);
      expect(kinds).toContain('Namespace');
      expect(objects.find(o => o.kind === 'Namespace')?.metadata?.name).toBe(
        DEFAULT_NAMESPACE,
      );
      expect(
        objects
          .filter(o => o.kind === 'CustomResourceDefinition')
          .map(o => o.metadata?.name),
      ).toEqual(
        expect.arrayContaining([
          'modeldeployments.airunway.ai',
          'inferenceproviderconfigs.airunway.ai',
        ]),
      );
      expect(kinds).toContain('Deployment');
      // Every namespaced object of ours lives in the one namespace.
      const elsewhere = objects
        .filter(
          o =>
            o.metadata?.namespace && o.metadata.namespace !== DEFAULT_NAMESPACE,
        )
        .map(objectId);
      expect(elsewhere).toEqual([]);
    },
  );

  it('crds/kustomization.yaml lists every generated CRD (add a new one there)', () => {
    const dir = path.join(DEPLOY, 'crds');
    const listed = renderKustomization(dir, {
      readFile: f => fs.readFileSync(f, 'utf8'),
      isDirectory: f => fs.statSync(f).isDirectory(),
      exists: f => fs.existsSync(f),
    }).map(r => path.basename(r.source));
    const onDisk = fs
      .readdirSync(dir)
      .filter(f => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...new Set(listed)].sort()).toEqual(onDisk.sort());
  });

  it('install/install.yaml is the rendering of every bundle (run `yarn workspace @runway-portal/cli generate` when this fails)', () => {
    expect(fs.readFileSync(path.join(DEPLOY, INSTALL_YAML), 'utf8')).toBe(
      renderInstallYaml(DEPLOY),
    );
  });

  it('the aggregate install/ renders to everything, each object once, webhooks last', () => {
    const objects = renderKustomization(path.join(DEPLOY, 'install'), {
      readFile: f => fs.readFileSync(f, 'utf8'),
      isDirectory: f => fs.statSync(f).isDirectory(),
      exists: f => fs.existsSync(f),
    }).map(r => r.object);
    const deployments = objects
      .filter(o => o.kind === 'Deployment')
      .map(o => o.metadata?.name);
    expect(deployments).toEqual([
      'airunway-core',
      'airunway-models',
      'airunway-stacks',
      'kaito-provider',
      'dynamo-provider',
      'kuberay-provider',
      'llmd-provider',
    ]);
    expect(objects[0].kind).toBe('Namespace');
    expect(objects[objects.length - 1].kind).toMatch(/WebhookConfiguration$/);
  });

  it('no manifest, bundle or CRD spells the old namespace name', () => {
    const walk = (dir: string): string[] =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap(d =>
          d.isDirectory()
            ? walk(path.join(dir, d.name))
            : [path.join(dir, d.name)],
        );
    const offenders = walk(DEPLOY).filter(f =>
      /(?<!ai)runway-system/.test(fs.readFileSync(f, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});

describe('renderKustomization', () => {
  it('follows resources through folders, in order', () => {
    const files = memoryFiles({
      '/r/k/kustomization.yaml': 'resources:\n  - ../base\n  - b.yaml\n',
      '/r/k/b.yaml': cm('b'),
      '/r/base/kustomization.yaml': 'resources: [a.yaml]\n',
      '/r/base/a.yaml': `${cm('a1')}---\n${cm('a2')}`,
    });
    expect(
      renderKustomization('/r/k', files).map(r => r.object.metadata?.name),
    ).toEqual(['a1', 'a2', 'b']);
  });

  it('refuses an object twice, as kustomize does', () => {
    const files = memoryFiles({
      '/r/k/kustomization.yaml': 'resources: [../x, ../y]\n',
      '/r/x/kustomization.yaml': 'resources: [a.yaml]\n',
      '/r/x/a.yaml': cm('same'),
      '/r/y/kustomization.yaml': 'resources: [a.yaml]\n',
      '/r/y/a.yaml': cm('same'),
    });
    expect(() => renderKustomization('/r/k', files)).toThrow(
      /ConfigMap same is defined twice/,
    );
  });

  it('refuses files outside the folder, fields it does not implement, and missing files', () => {
    expect(() =>
      renderKustomization(
        '/r/k',
        memoryFiles({
          '/r/k/kustomization.yaml': 'resources: [../a.yaml]\n',
          '/r/a.yaml': cm('a'),
        }),
      ),
    ).toThrow(/outside the kustomization's folder/);
    expect(() =>
      renderKustomization(
        '/r/k',
        memoryFiles({
          '/r/k/kustomization.yaml': 'resources: []\nnamePrefix: x-\n',
        }),
      ),
    ).toThrow(/uses namePrefix, which this renderer does not support/);
    expect(() =>
      renderKustomization(
        '/r/k',
        memoryFiles({ '/r/k/kustomization.yaml': 'resources: [gone.yaml]\n' }),
      ),
    ).toThrow(/resource gone.yaml does not exist/);
    expect(() =>
      renderKustomization('/r/k', memoryFiles({ '/r/k/x.yaml': cm('a') })),
    ).toThrow(/no kustomization.yaml/);
  });

  it('names a document that is not a Kubernetes object', () => {
    const files = memoryFiles({
      '/r/k/kustomization.yaml': 'resources: [a.yaml]\n',
      '/r/k/a.yaml': 'hello: world\n',
    });
    expect(() => renderKustomization('/r/k', files)).toThrow(
      /\/r\/k\/a.yaml: a document is not a Kubernetes object/,
    );
  });
});

describe('outOfClusterPlan: every bundle, for controllers run outside the cluster', () => {
  const plan = buildPlan(CATALOG.map(e => loadCatalogBundle(e, DEPLOY)));
  const outside = outOfClusterPlan(plan);
  const ids = (objects: typeof plan) =>
    objects.map(p => describeObject(p.object));

  it('leaves out the Deployments and the Services in front of their pods, nothing else', () => {
    const left = ids(plan).filter(id => !ids(outside).includes(id));
    expect(left.sort()).toEqual(
      [
        'Deployment airunway-system/airunway-core',
        'Deployment airunway-system/airunway-models',
        'Deployment airunway-system/airunway-stacks',
        'Deployment airunway-system/dynamo-provider',
        'Deployment airunway-system/kaito-provider',
        'Deployment airunway-system/kuberay-provider',
        'Deployment airunway-system/llmd-provider',
        'Service airunway-system/airunway-core-webhook',
        'Service airunway-system/airunway-models-webhook',
        'Service airunway-system/airunway-stacks-webhook',
      ].sort(),
    );
    // The identities the controllers run as stay, with their RBAC.
    expect(ids(outside)).toEqual(
      expect.arrayContaining([
        'Namespace airunway-system',
        'CustomResourceDefinition modeldeployments.airunway.ai',
        'ServiceAccount airunway-system/airunway-core',
        'ServiceAccount airunway-system/kaito-provider',
        'ClusterRole airunway-core',
      ]),
    );
  });

  it('keeps each webhook configuration empty (it intercepts nothing) for the controller to fill in, in the webhook phase', () => {
    const hooks = outside.filter(p => p.phase === 'webhook');
    expect(ids(hooks).sort()).toEqual(
      ids(plan.filter(p => p.phase === 'webhook')).sort(),
    );
    expect(hooks.length).toBeGreaterThan(0);
    for (const { object } of hooks) {
      expect(object).not.toHaveProperty('webhooks');
      expect(object.metadata?.labels?.['airunway.ai/component']).toBeDefined();
    }
  });

  it('leaves out a CRD conversion webhook by Service (the stacks CRD), and changes no other CRD', () => {
    const crds = (objects: typeof plan) =>
      objects.filter(p => p.phase === 'crd').map(p => p.object);
    const changed = crds(outside).filter(
      (crd, i) => JSON.stringify(crd) !== JSON.stringify(crds(plan)[i]),
    );
    expect(changed.map(c => c.metadata?.name)).toEqual([
      'llamastackdistributions.llamastack.io',
    ]);
    expect(changed[0]).not.toHaveProperty('spec.conversion');
    expect(changed[0]).toHaveProperty('spec.versions');
  });
});
