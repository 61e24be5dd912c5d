import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { defaultLeaseName } from '@runway-portal/controller-runtime';
import { main, webhookConfigurations } from './main';
import { CORE_PROGRAM } from './options';

describe('main', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    stderr.mockRestore();
    process.exitCode = undefined;
  });

  it('exits with 2 and names every bad setting', async () => {
    await main(['--webhook-mode=sometimes', '--metrics-port=x'], {});
    expect(process.exitCode).toBe(2);
    const text = stderr.mock.calls.map(c => String(c[0])).join('');
    expect(text).toContain(
      'airunway-core: --webhook-mode (WEBHOOK_MODE) "sometimes" is not valid: use service, url or off',
    );
    expect(text).toContain(
      'airunway-core: --metrics-port (METRICS_PORT) "x" is not valid: use a whole number from 0 to 65535',
    );
    expect(text).toContain('usage: airunway-core [flags]');
  });

  it('prints the flags for --help and runs nothing', async () => {
    const stdout = jest
      .spyOn(process.stdout, 'write')
      .mockImplementation(() => true);
    try {
      await main(['--help', '--kubeconfig=/nonexistent/kubeconfig'], {});
      expect(process.exitCode).toBeUndefined();
      expect(stdout.mock.calls.map(c => String(c[0])).join('')).toContain(
        '--webhook-mode <value>  (env WEBHOOK_MODE)',
      );
    } finally {
      stdout.mockRestore();
    }
  });

  it('exits with 1 and says why when the kubeconfig cannot be read', async () => {
    await main(
      [
        '--kubeconfig=/nonexistent/kubeconfig',
        '--webhook-mode=off',
        '--metrics-port=0',
        '--health-port=0',
      ],
      {},
    );
    expect(process.exitCode).toBe(1);
    expect(stderr.mock.calls.map(c => String(c[0])).join('')).toContain(
      '/nonexistent/kubeconfig',
    );
  });
});

describe('webhookConfigurations', () => {
  it('points both webhooks at the given base URL, for ModelDeployment creates and updates only', () => {
    const [mutating, validating] = webhookConfigurations(
      'https://127.0.0.1:9443',
    );
    expect(mutating.webhooks[0].clientConfig.url).toBe(
      'https://127.0.0.1:9443/mutate-airunway-ai-v1alpha1-modeldeployment',
    );
    expect(validating.webhooks[0].clientConfig.url).toBe(
      'https://127.0.0.1:9443/validate-airunway-ai-v1alpha1-modeldeployment',
    );
    expect(validating.webhooks[0].rules).toEqual([
      expect.objectContaining({
        apiGroups: ['airunway.ai'],
        resources: ['modeldeployments'],
        operations: ['CREATE', 'UPDATE'],
      }),
    ]);
  });

  it('never blocks the cluster, exactly as the shipped configurations: Ignore on failure, spec changes only', () => {
    const shipped = parseAllDocuments(
      fs.readFileSync(
        path.resolve(__dirname, '../../deploy/core/webhooks.yaml'),
        'utf8',
      ),
    ).map(d => d.toJSON());
    for (const config of webhookConfigurations('https://127.0.0.1:9443')) {
      const [hook] = config.webhooks;
      const yaml = shipped.find(d => d.kind === config.kind).webhooks[0];
      expect(hook.failurePolicy).toBe('Ignore');
      expect(hook.matchConditions).toEqual(yaml.matchConditions);
      expect({
        failurePolicy: yaml.failurePolicy,
        timeoutSeconds: yaml.timeoutSeconds,
      }).toEqual({
        failurePolicy: 'Ignore',
        timeoutSeconds: hook.timeoutSeconds,
      });
    }
  });

  it('renews the Lease its shipped Role names (the one `runway doctor` reads when there is no Deployment)', () => {
    const role = parseAllDocuments(
      fs.readFileSync(
        path.resolve(__dirname, '../../deploy/core/rbac.yaml'),
        'utf8',
      ),
    )
      .map(d => d.toJSON())
      .find(d => d?.kind === 'Role');
    expect(
      role.rules.filter(
        (r: { resources: string[]; resourceNames?: string[] }) =>
          r.resources.includes('leases') && r.resourceNames,
      ),
    ).toEqual([
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        resourceNames: [defaultLeaseName(CORE_PROGRAM)],
        verbs: ['get', 'update'],
      },
    ]);
  });
});
