import { KAITO_PROVIDER } from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition } from './definition';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { providerLeaseName, runProvider } from './run';

const definition: ProviderDefinition = {
  name: 'kaito',
  registration: KAITO_PROVIDER,
  version: 'test',
  upstream: {
    group: 'kaito.sh',
    kind: 'Workspace',
    plural: 'workspaces',
    versions: ['v1beta1'],
  },
  overrides: {},
  transform: () => ({ objects: [] }),
  mapStatus: () => ({
    phase: 'Running',
    message: '',
    ready: true,
    reason: 'R',
  }),
};

describe('runProvider', () => {
  let out: string;
  let err: string;
  beforeEach(() => {
    out = '';
    err = '';
    jest.spyOn(process.stdout, 'write').mockImplementation(chunk => {
      out += String(chunk);
      return true;
    });
    jest.spyOn(process.stderr, 'write').mockImplementation(chunk => {
      err += String(chunk);
      return true;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('prints usage for --help', async () => {
    expect(await runProvider(definition, ['--help'], {})).toBe(0);
    expect(out).toContain(
      '--finalizer-timeout <value>  (env FINALIZER_TIMEOUT)  how long deletion waits for the upstream resource, e.g. 5m, 30s, default 5m\n',
    );
    expect(out).toContain(
      '--metrics-port <value>  (env METRICS_PORT)  port of /metrics (0 picks a free one), default 8080\n',
    );
  });

  it("shows the definition's own default for parallel reconciles in --help", async () => {
    expect(await runProvider(definition, ['--help'], {})).toBe(0);
    expect(out).toContain('parallel reconciles, default 32\n');
    out = '';
    expect(
      await runProvider({ ...definition, maxConcurrentReconciles: 64 }, [
        '--help',
      ]),
    ).toBe(0);
    expect(out).toContain('parallel reconciles, default 64\n');
  });

  it('exits 2 naming a bad flag', async () => {
    expect(
      await runProvider(definition, ['--finalizer-timeout', 'soon'], {
        LOG_LEVEL: 'loud',
      }),
    ).toBe(2);
    expect(err).toContain(
      'kaito-provider: --finalizer-timeout (FINALIZER_TIMEOUT) "soon" is not a duration: write e.g. 30s, 5m or 1h\n',
    );
    expect(err).toContain(
      'kaito-provider: --log-level (LOG_LEVEL) "loud" is not valid: use debug, info, warn or error\n',
    );
    expect(err).toContain('usage: kaito-provider [flags]');
  });

  it('exits 1 with a clear message when the kubeconfig cannot be loaded', async () => {
    expect(
      await runProvider(
        definition,
        ['--kubeconfig', '/nonexistent/kubeconfig', '--log-level', 'error'],
        {},
      ),
    ).toBe(1);
    expect(out).toContain(
      'cannot load the cluster configuration: set --kubeconfig or KUBECONFIG, or run in a cluster',
    );
  });
});

describe('the shipped leader-election Roles', () => {
  it.each(['kaito', 'dynamo', 'kuberay', 'llmd'])(
    "%s may get and update only its own Lease, never the core's",
    name => {
      const file = path.resolve(
        __dirname,
        `../../../deploy/provider-${name}/rbac.yaml`,
      );
      const docs = parseAllDocuments(fs.readFileSync(file, 'utf8')).map(d =>
        d.toJSON(),
      );
      const role = docs.find(
        d =>
          d?.kind === 'Role' &&
          d.metadata.name === `${name}-provider-leader-election`,
      );
      const leaseRules = role.rules.filter((r: { resources: string[] }) =>
        r.resources.includes('leases'),
      );
      expect(leaseRules).toEqual([
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          verbs: ['create'],
        },
        {
          apiGroups: ['coordination.k8s.io'],
          resources: ['leases'],
          resourceNames: [providerLeaseName(name)],
          verbs: ['get', 'update'],
        },
      ]);
    },
  );
});
