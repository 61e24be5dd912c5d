import {
  convertStackToV1alpha2,
  defaultStackV1alpha2,
  normalizeStackV1alpha2,
} from '@runway-portal/plugin-runway-common';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { embeddedDistributions } from './config/distributions';
import { generateConfig } from './config/generate';
import {
  CONFIG_HASH_ANNOTATION,
  configMapName,
  concatCaBundle,
  desiredCaBundle,
  desiredConfigMap,
  desiredDeployment,
  desiredSatellites,
  type Stack,
} from './objects';

const SAMPLES = join(__dirname, '../../../../shared/upstream/samples');

function stackOf(spec: unknown, name = 'my-stack'): Stack {
  const obj = normalizeStackV1alpha2({
    apiVersion: 'llamastack.io/v1alpha2',
    kind: 'LlamaStackDistribution',
    metadata: { name, namespace: 'team-a', uid: 'uid-1' },
    spec,
  }).object as Stack;
  return defaultStackV1alpha2(obj);
}

/** What the reconciler does on success: generate, then the ConfigMap and Deployment from the same result. */
function build(
  stack: Stack,
  image = 'docker.io/llamastack/distribution-starter:latest',
) {
  const result = generateConfig({
    spec: stack.spec,
    baseConfig: embeddedDistributions().configs.starter,
  });
  if (!result.ok) throw new Error(result.message);
  const name = configMapName(stack.metadata!.name!, result.contentHash);
  return {
    result,
    configMap: desiredConfigMap(stack, result.configYaml, result.contentHash),
    deployment: desiredDeployment(stack, {
      image,
      config: {
        configMapName: name,
        key: 'config.yaml',
        hash: result.contentHash,
      },
      secretEnv: result.envVars,
      caBundleHash: stack.spec.networking?.tls?.caBundle
        ? 'sha256:ca'
        : undefined,
    }),
  };
}

const podTemplate = (d: any) => d.spec.template;

describe('desired objects', () => {
  const base = {
    distribution: { name: 'starter' },
    providers: {
      inference: {
        provider: 'vllm',
        endpoint: 'http://vllm:8000',
        apiKey: { secretKeyRef: { name: 'vllm', key: 'token' } },
      },
    },
  };

  it('NFR-005, FR-024, FR-025: an immutable ConfigMap named by the hash, owned by the stack', () => {
    const { configMap, result } = build(stackOf(base));
    expect(configMap.metadata!.name).toBe(
      `my-stack-config-${result.contentHash.slice(7, 15)}`,
    );
    expect(configMap).toMatchObject({
      immutable: true,
      data: { 'config.yaml': result.configYaml },
      metadata: {
        namespace: 'team-a',
        ownerReferences: [
          {
            kind: 'LlamaStackDistribution',
            name: 'my-stack',
            uid: 'uid-1',
            controller: true,
          },
        ],
      },
    });
    expect(configMapName('x'.repeat(300), 'sha256:0123456789').length).toBe(
      253,
    );
  });

  it('FR-096: a reworded CR with the same config gives the same pod template (no restart)', () => {
    const a = build(stackOf(base)).deployment;
    const b = build(
      stackOf({
        providers: {
          inference: [
            {
              apiKey: { secretKeyRef: { key: 'token', name: 'vllm' } },
              endpoint: 'http://vllm:8000',
              provider: 'vllm',
            },
          ],
        },
        distribution: { name: 'starter' },
      }),
    ).deployment;
    expect(podTemplate(b)).toEqual(podTemplate(a));
  });

  it('FR-095, FR-100: a config change and an image change land in one Deployment object', () => {
    const before = build(stackOf(base)).deployment as any;
    const after = build(
      stackOf({ ...base, resources: { models: ['llama3.2-8b'] } }),
      'docker.io/llamastack/distribution-starter:0.8.0',
    ).deployment as any;
    const c0 = before.spec.template.spec.containers[0];
    const c1 = after.spec.template.spec.containers[0];
    expect(c1.image).toBe('docker.io/llamastack/distribution-starter:0.8.0');
    expect(
      after.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION],
    ).not.toBe(
      before.spec.template.metadata.annotations[CONFIG_HASH_ANNOTATION],
    );
    expect(after.spec.template.spec.volumes[0].configMap.name).not.toBe(
      before.spec.template.spec.volumes[0].configMap.name,
    );
    expect(c1.env).toEqual(c0.env);
  });

  it('the Deployment: port, secret env, probes, workers, resources, overrides, topology spread', () => {
    const stack = stackOf({
      ...base,
      networking: {
        port: 9000,
        tls: {
          enabled: true,
          secretName: 'llama-tls',
          caBundle: { configMapName: 'custom-ca' },
        },
      },
      workload: {
        replicas: 2,
        workers: 4,
        resources: { requests: { cpu: '500m' } },
        storage: { size: '10Gi' },
        topologySpreadConstraints: [
          {
            maxSkew: 1,
            topologyKey: 'zone',
            whenUnsatisfiable: 'ScheduleAnyway',
          },
        ],
        overrides: {
          serviceAccountName: 'custom-sa',
          env: [{ name: 'LLS_WORKERS', value: '8' }],
          args: ['--verbose'],
        },
      },
    });
    const d = build(stack).deployment as any;
    const pod = d.spec.template.spec;
    const c = pod.containers[0];
    expect(d.spec.replicas).toBe(2);
    expect(c.ports).toEqual([
      { name: 'http', containerPort: 9000, protocol: 'TCP' },
    ]);
    expect(c.env).toEqual([
      { name: 'LLAMA_STACK_CONFIG', value: '/etc/llama-stack/config.yaml' },
      {
        name: 'SSL_CERT_FILE',
        value: '/etc/ssl/certs/ca-bundle/ca-bundle.crt',
      },
      {
        name: 'LLSD_VLLM_API_KEY',
        valueFrom: { secretKeyRef: { name: 'vllm', key: 'token' } },
      },
      { name: 'LLS_WORKERS', value: '8' }, // the user's value wins over workers
    ]);
    expect(c.readinessProbe.httpGet).toEqual({
      path: '/v1/health',
      port: 9000,
      scheme: 'HTTPS',
    });
    expect(c.args).toEqual(['--verbose']);
    expect(c.resources).toEqual({ requests: { cpu: '500m' } });
    expect(pod.serviceAccountName).toBe('custom-sa');
    // The server's group owns the volume, as upstream's operator sets it.
    expect(pod.securityContext).toEqual({ fsGroup: 1001 });
    expect(pod.topologySpreadConstraints).toHaveLength(1);
    expect(pod.volumes.map((v: any) => v.name)).toEqual([
      'config',
      'lls-storage',
      'tls',
      'ca-bundle',
    ]);
    // The managed bundle (one file), and its hash on the template: new certificates roll the pods.
    expect(pod.volumes[3]).toEqual({
      name: 'ca-bundle',
      configMap: {
        name: 'my-stack-ca-bundle',
        items: [{ key: 'ca-bundle.crt', path: 'ca-bundle.crt' }],
      },
    });
    expect(
      d.spec.template.metadata.annotations['llamastack.io/ca-bundle-hash'],
    ).toBe('sha256:ca');
    expect(pod.volumes[1]).toEqual({
      name: 'lls-storage',
      persistentVolumeClaim: { claimName: 'my-stack-pvc' },
    });
    expect(c.volumeMounts).toContainEqual({
      name: 'lls-storage',
      mountPath: '/.llama',
    });
  });

  it('the CA bundle: the certificates of every listed key, in the order listed, in one file; a key without one names the field', () => {
    const pem = (n: string) =>
      `-----BEGIN CERTIFICATE-----\n${n}\n-----END CERTIFICATE-----`;
    const data = {
      'a.crt': `# team A\n${pem('AAA')}\n`,
      'b.crt': `${pem('B1')}\n${pem('B2')}`,
      'ca-bundle.crt': pem('DEFAULT'),
      'notes.txt': 'no certificate here',
    };
    expect(
      concatCaBundle(
        data,
        { configMapName: 'ca', configMapKeys: ['b.crt', 'a.crt'] },
        'certs',
      ),
    ).toEqual({
      ok: true,
      text: `${pem('B1')}\n${pem('B2')}\n${pem('AAA')}\n`,
    });
    expect(concatCaBundle(data, { configMapName: 'ca' }, 'certs')).toEqual({
      ok: true,
      text: `${pem('DEFAULT')}\n`,
    });
    expect(
      concatCaBundle(
        data,
        { configMapName: 'ca', configMapKeys: ['a.crt', 'notes.txt'] },
        'certs',
      ),
    ).toEqual({
      ok: false,
      message:
        'ConfigMap "ca" in namespace "certs" has no PEM certificate (-----BEGIN CERTIFICATE-----) under key "notes.txt": put the CA certificates there or change spec.networking.tls.caBundle.configMapKeys',
    });
    const stack = stackOf(base);
    expect(
      desiredCaBundle(stack, 'x', 'sha256:1').metadata?.labels?.[
        'llamastack.io/ca-bundle'
      ],
    ).toBe('true');
  });

  it('Service on networking.port (8321 by default)', () => {
    const { Service } = desiredSatellites(stackOf(base));
    expect((Service as any).spec.ports).toEqual([
      { name: 'http', port: 8321, targetPort: 8321, protocol: 'TCP' },
    ]);
    expect(Service.metadata!.name).toBe('my-stack-service');
  });

  it('FR-064, FR-065, edge case: expose true, {} and a hostname', () => {
    expect(desiredSatellites(stackOf(base)).Ingress).toBeUndefined();
    expect(
      desiredSatellites(stackOf({ ...base, networking: { expose: false } }))
        .Ingress,
    ).toBeUndefined();
    const exposed = (spec: unknown, domain?: string) =>
      (
        desiredSatellites(stackOf(spec), { ingressDomain: domain })
          .Ingress as any
      )?.spec;
    expect(
      exposed({ ...base, networking: { expose: true } }, 'apps.example.com')
        .rules[0].host,
    ).toBe('my-stack-team-a.apps.example.com');
    expect(
      exposed({ ...base, networking: { expose: {} } }).rules[0].host,
    ).toBeUndefined();
    expect(
      exposed({ ...base, networking: { expose: {} } }).rules[0].http.paths[0]
        .backend,
    ).toEqual({
      service: { name: 'my-stack-service', port: { number: 8321 } },
    });
    const tls = exposed({
      ...base,
      networking: {
        expose: { hostname: 'llama.example.com' },
        tls: { enabled: true, secretName: 'llama-tls' },
      },
    });
    expect(tls.rules[0].host).toBe('llama.example.com');
    expect(tls.tls).toEqual([
      { hosts: ['llama.example.com'], secretName: 'llama-tls' },
    ]);
  });

  it('FR-066: allowedFrom as a NetworkPolicy', () => {
    const np = desiredSatellites(
      stackOf({
        ...base,
        networking: {
          allowedFrom: {
            namespaces: ['nsB', 'nsA'],
            labels: ['team/authorized'],
          },
        },
      }),
    ).NetworkPolicy as any;
    expect(np.spec.ingress[0].from).toEqual([
      { podSelector: {} },
      {
        namespaceSelector: {
          matchExpressions: [
            {
              key: 'kubernetes.io/metadata.name',
              operator: 'In',
              values: ['nsA', 'nsB'],
            },
          ],
        },
      },
      {
        namespaceSelector: {
          matchExpressions: [{ key: 'team/authorized', operator: 'Exists' }],
        },
      },
    ]);
    expect(np.spec.ingress).toHaveLength(1);
    // With the operator's namespace known, its pods may probe /v1/health.
    const probed = desiredSatellites(
      stackOf({
        ...base,
        networking: { allowedFrom: { namespaces: ['nsA'] } },
      }),
      { operatorNamespace: 'airunway-system' },
    ).NetworkPolicy as any;
    expect(probed.spec.ingress[1]).toEqual({
      from: [
        {
          namespaceSelector: {
            matchLabels: { 'kubernetes.io/metadata.name': 'airunway-system' },
          },
          podSelector: {
            matchLabels: { 'app.kubernetes.io/name': 'airunway-stacks' },
          },
        },
      ],
      ports: [{ protocol: 'TCP', port: 8321 }],
    });
    const all = desiredSatellites(
      stackOf({ ...base, networking: { allowedFrom: { namespaces: ['*'] } } }),
    ).NetworkPolicy as any;
    expect(all.spec.ingress[0].from).toEqual([
      { podSelector: {} },
      { namespaceSelector: {} },
    ]);
  });

  it('PVC, PDB, HPA (and no replicas in the Deployment with an HPA)', () => {
    const stack = stackOf({
      ...base,
      workload: {
        storage: { size: '20Gi' },
        podDisruptionBudget: { minAvailable: 1 },
        autoscaling: {
          minReplicas: 2,
          maxReplicas: 5,
          targetCPUUtilizationPercentage: 80,
        },
      },
    });
    const s = desiredSatellites(stack) as any;
    expect(s.PersistentVolumeClaim.spec.resources.requests.storage).toBe(
      '20Gi',
    );
    expect(s.PodDisruptionBudget.spec).toEqual({
      selector: { matchLabels: expect.any(Object) },
      minAvailable: 1,
    });
    expect(s.HorizontalPodAutoscaler.spec).toEqual({
      scaleTargetRef: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: 'my-stack',
      },
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [
        {
          type: 'Resource',
          resource: {
            name: 'cpu',
            target: { type: 'Utilization', averageUtilization: 80 },
          },
        },
      ],
    });
    expect((build(stack).deployment as any).spec.replicas).toBeUndefined();
  });

  it("v1alpha1's containerSpec.name (kept by conversion in an annotation) names the container", () => {
    const v1 = {
      apiVersion: 'llamastack.io/v1alpha1',
      kind: 'LlamaStackDistribution',
      metadata: { name: 's', namespace: 'ns', uid: 'u' },
      spec: {
        server: {
          distribution: { name: 'starter' },
          containerSpec: { name: 'server' },
        },
      },
    };
    const stack = defaultStackV1alpha2(
      convertStackToV1alpha2(v1 as any) as Stack,
    );
    expect(
      (build(stack).deployment as any).spec.template.spec.containers[0].name,
    ).toBe('server');
    expect(
      (build(stackOf(base)).deployment as any).spec.template.spec.containers[0]
        .name,
    ).toBe('llama-stack');
  });

  it('every upstream v1alpha1 sample, converted as the API server does, gives its objects', () => {
    const files = readdirSync(SAMPLES).filter(f =>
      f.startsWith('llamastack-v1alpha1'),
    );
    let count = 0;
    for (const file of files) {
      for (const doc of parseAllDocuments(
        readFileSync(join(SAMPLES, file), 'utf8'),
      )) {
        const obj = doc.toJS();
        if (obj?.kind !== 'LlamaStackDistribution') continue;
        const v2 = defaultStackV1alpha2(
          convertStackToV1alpha2({
            ...obj,
            metadata: { ...obj.metadata, namespace: 'ns', uid: 'u' },
          }) as Stack,
        );
        // A sample with userConfig mounts the user's ConfigMap; the others generate from the embedded base.
        const d = v2.spec.overrideConfig
          ? desiredDeployment(v2, {
              image: 'img',
              config: {
                configMapName: v2.spec.overrideConfig.configMapName,
                key: 'config.yaml',
                hash: 'sha256:x',
              },
              secretEnv: [],
            })
          : build(v2).deployment;
        expect(
          (d as any).spec.template.spec.containers[0].ports[0].containerPort,
        ).toBe(8321);
        const s = desiredSatellites(v2);
        expect({
          file,
          ingress: !!s.Ingress,
          networkPolicy: !!s.NetworkPolicy,
          pvc: !!s.PersistentVolumeClaim,
          hpa: !!s.HorizontalPodAutoscaler,
        }).toEqual({
          file,
          ingress: !!obj.spec.network?.exposeRoute,
          networkPolicy: !!obj.spec.network?.allowedFrom,
          pvc: !!obj.spec.server?.storage,
          hpa: !!obj.spec.server?.autoscaling,
        });
        count++;
      }
    }
    expect(count).toBe(6);
  });
});
