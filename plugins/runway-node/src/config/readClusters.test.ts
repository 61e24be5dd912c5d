import { ConfigReader } from '@backstage/config';
import type { JsonObject } from '@backstage/types';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { checkServerUrl, readClusterSpecs } from './readClusters';
import { readRunwayOptions } from './readOptions';

const kubernetes = (clusters: JsonObject[]) => ({
  kubernetes: {
    clusterLocatorMethods: [{ type: 'catalog' }, { type: 'config', clusters }],
  },
});

describe('readClusterSpecs', () => {
  it('reads clusters from kubernetes.clusterLocatorMethods as the Kubernetes plugin does', () => {
    const { clusters, problems } = readClusterSpecs(
      new ConfigReader(
        kubernetes([
          {
            name: 'gpu-east',
            title: 'GPU East',
            url: 'https://k8s.east.example.com:6443/',
            authProvider: 'serviceAccount',
            serviceAccountToken: 'secret-token',
            caData: 'LS0tLS1CRUdJTg==',
          },
          {
            name: 'lab',
            url: 'https://lab:6443',
            skipTLSVerify: true,
            authMetadata: { 'kubernetes.io/auth-provider': 'serviceAccount' },
          },
        ]),
      ),
    );
    expect(problems).toEqual([]);
    expect(clusters).toEqual([
      {
        name: 'gpu-east',
        title: 'GPU East',
        url: 'https://k8s.east.example.com:6443',
        auth: { type: 'serviceAccount', token: 'secret-token' },
        caData: 'LS0tLS1CRUdJTg==',
        caFile: undefined,
        skipTLSVerify: false,
        configPath: 'kubernetes.clusterLocatorMethods[1].clusters[0]',
      },
      expect.objectContaining({
        name: 'lab',
        skipTLSVerify: true,
        auth: { type: 'serviceAccount', token: undefined },
      }),
    ]);
  });

  it('reports a broken entry by its config key and keeps the others', () => {
    const { clusters, problems } = readClusterSpecs(
      new ConfigReader(
        kubernetes([
          { name: 'good', url: 'https://good:6443', serviceAccountToken: 't' },
          { name: 'no-url' },
          { name: 'bad-url', url: 'ftp://x' },
          { name: 'google', url: 'https://g:443', authProvider: 'google' },
          { url: 'https://nameless:6443' },
          { name: 'good', url: 'https://dup:6443' },
          { name: 'Bad_Name', url: 'https://x:6443' },
        ]),
      ),
    );
    expect(clusters.map(c => c.name)).toEqual(['good']);
    const at = (p: string) => problems.find(x => x.path === p)?.message;
    expect(at('kubernetes.clusterLocatorMethods[1].clusters[1].url')).toMatch(
      /has no url: set it/,
    );
    expect(at('kubernetes.clusterLocatorMethods[1].clusters[2].url')).toMatch(
      /must start with https:\/\//,
    );
    expect(
      at('kubernetes.clusterLocatorMethods[1].clusters[3].authProvider'),
    ).toMatch(/use authProvider "serviceAccount"/);
    expect(at('kubernetes.clusterLocatorMethods[1].clusters[4].name')).toMatch(
      /has no name/,
    );
    expect(at('kubernetes.clusterLocatorMethods[1].clusters[5].name')).toMatch(
      /used twice/,
    );
    expect(at('kubernetes.clusterLocatorMethods[1].clusters[6].name')).toMatch(
      /lower-case letters/,
    );
    expect(problems.find(p => p.cluster === 'google')).toBeDefined();
  });

  it('applies the namespace allow-list and fails closed on a bad entry', () => {
    const { clusters, problems } = readClusterSpecs(
      new ConfigReader({
        ...kubernetes([
          { name: 'a', url: 'https://a:6443' },
          { name: 'b', url: 'https://b:6443' },
        ]),
        runway: {
          clusters: [
            { name: 'a', namespaces: ['team-a', 'team-b', 'team-a'] },
            { name: 'b', namespaces: ['Not_A_Namespace'] },
            { name: 'ghost', namespaces: ['x'] },
          ],
        },
      }),
    );
    expect(clusters.find(c => c.name === 'a')?.namespaces).toEqual([
      'team-a',
      'team-b',
    ]);
    expect(clusters.find(c => c.name === 'b')?.namespaces).toEqual([]);
    expect(problems.map(p => p.path)).toEqual([
      'runway.clusters[1].namespaces',
      'runway.clusters[2].name',
    ]);
  });

  it('adds kubeconfig contexts for local development', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runway-kc-'));
    const file = path.join(dir, 'config');
    fs.writeFileSync(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          { name: 'kind', cluster: { server: 'https://127.0.0.1:4443' } },
        ],
        users: [{ name: 'me', user: { token: 'x' } }],
        contexts: [
          { name: 'kind-dev', context: { cluster: 'kind', user: 'me' } },
        ],
        'current-context': 'kind-dev',
      }),
    );
    try {
      const { clusters, problems } = readClusterSpecs(
        new ConfigReader({
          runway: {
            kubeconfig: [
              { context: 'kind-dev', name: 'dev', path: file },
              { context: 'missing', name: 'other', path: file },
              {
                context: 'kind-dev',
                name: 'gone',
                path: path.join(dir, 'nope'),
              },
            ],
          },
        }),
      );
      expect(clusters).toEqual([
        expect.objectContaining({
          name: 'dev',
          url: 'https://127.0.0.1:4443',
          auth: { type: 'kubeconfig', path: file, context: 'kind-dev' },
        }),
      ]);
      expect(problems[0].message).toMatch(
        /no usable context "missing" \(contexts: kind-dev\)/,
      );
      expect(problems[1].message).toMatch(/cannot read kubeconfig/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('checkServerUrl', () => {
  it('accepts http(s) server URLs only, without credentials', () => {
    expect(checkServerUrl('https://k8s:6443')).toBeUndefined();
    expect(checkServerUrl('not a url')).toMatch(/is not a URL/);
    expect(checkServerUrl('https://user:pw@k8s:6443')).toMatch(
      /must not carry credentials/,
    );
  });
});

describe('readRunwayOptions', () => {
  it('defaults the request bound to 5 s and reads durations', () => {
    expect(
      readRunwayOptions(new ConfigReader({})).options.requestTimeoutMs,
    ).toBe(5000);
    expect(
      readRunwayOptions(
        new ConfigReader({ runway: { requestTimeout: { seconds: 2 } } }),
      ).options.requestTimeoutMs,
    ).toBe(2000);
  });

  it('reports a bad bound and keeps the default', () => {
    const { options, problems } = readRunwayOptions(
      new ConfigReader({ runway: { requestTimeout: 'soon' } }),
    );
    expect(options.requestTimeoutMs).toBe(5000);
    expect(problems[0].path).toBe('runway.requestTimeout');
  });

  it("reads the doctor's interval (0: on demand only), bound and namespace; a bad one is a problem", () => {
    expect(readRunwayOptions(new ConfigReader({})).options.doctor).toEqual({});
    expect(
      readRunwayOptions(
        new ConfigReader({
          runway: {
            doctor: { interval: '0s', timeout: '10s', namespace: 'runway' },
          },
        }),
      ).options.doctor,
    ).toEqual({ intervalMs: 0, timeoutMs: 10_000, namespace: 'runway' });
    const { options, problems } = readRunwayOptions(
      new ConfigReader({ runway: { doctor: { timeout: '0s' } } }),
    );
    expect(options.doctor).toEqual({});
    expect(problems).toEqual([
      {
        path: 'runway.doctor.timeout',
        message: expect.stringContaining('it must be longer than zero'),
      },
    ]);
  });
});
