import fs from 'node:fs';
import path from 'node:path';
import type { KubeObject } from '@runway-portal/controller-runtime';
import type { ModelDeployment } from '@runway-portal/plugin-runway-common';
import {
  DESIRED_ANNOTATION,
  IDENTITY_ANNOTATION,
  TransformError,
  checkOverrides,
  desiredObjects,
} from '@runway-portal/provider-shared';
import { parse } from 'yaml';
import { kuberayProvider } from './definition';
import { KUBERAY_OVERRIDES } from './overrides';
import { mapKubeRayStatus } from './status';
import {
  DEFAULT_RAY_IMAGE,
  MIN_PD_RAY_VERSION,
  RAY_VERSION,
  typed,
} from './transform';

const testdata = (file: string) =>
  parse(fs.readFileSync(path.join(__dirname, 'testdata', file), 'utf8'));
const v1 = { apiVersion: 'ray.io/v1' };

function qwen(): ModelDeployment {
  const deployment = testdata('llama-modeldeployment.yaml') as ModelDeployment;
  deployment.metadata!.uid = '00000000-0000-0000-0000-000000000003';
  deployment.status = { provider: { name: 'kuberay' } };
  return deployment;
}

function serveConfig(obj: KubeObject): any {
  return parse((obj.spec as { serveConfigV2: string }).serveConfigV2);
}

describe('KubeRay transform', () => {
  it('produces the golden RayService', () => {
    const { objects } = desiredObjects(kuberayProvider, qwen(), v1);
    expect(objects).toHaveLength(1);
    const { annotations, ...metadata } = objects[0].metadata!;
    expect(Object.keys(annotations!).sort()).toEqual([
      DESIRED_ANNOTATION,
      IDENTITY_ANNOTATION,
    ]);
    const expected = testdata('llama-rayservice.yaml');
    expect({
      ...objects[0],
      metadata,
      spec: {
        ...(objects[0].spec as object),
        serveConfigV2: serveConfig(objects[0]),
      },
    }).toEqual({
      ...expected,
      spec: {
        ...expected.spec,
        serveConfigV2: parse(expected.spec.serveConfigV2),
      },
    });
  });

  it('applies the seed head defaults and the default image', () => {
    const d = qwen();
    delete d.spec.provider!.overrides;
    const head = (desiredObjects(kuberayProvider, d, v1).objects[0].spec as any)
      .rayClusterConfig.headGroupSpec;
    expect(head.rayStartParams).toEqual({});
    expect(head.template.spec.containers[0]).toMatchObject({
      image: DEFAULT_RAY_IMAGE,
      resources: { requests: { cpu: '2', memory: '4Gi' } },
    });
  });

  it('builds prefill and decode worker groups for disaggregated mode', () => {
    const d = qwen();
    d.spec.serving = { mode: 'disaggregated' };
    delete d.spec.resources;
    d.spec.scaling = {
      prefill: { replicas: 1, gpu: { count: 1 }, memory: '40Gi' },
      decode: { replicas: 3, gpu: { count: 2 }, memory: '80Gi' },
    };
    const rs = desiredObjects(kuberayProvider, d, v1).objects[0];
    const app = serveConfig(rs).applications[0];
    expect(app.import_path).toBe('ray.serve.llm:build_pd_openai_app');
    expect(
      app.args.prefill_config.deployment_config.autoscaling_config,
    ).toEqual({ min_replicas: 1, max_replicas: 1 });
    expect(app.args.decode_config.engine_kwargs.tensor_parallel_size).toBe(2);
    // Ray Serve LLM's P/D builder needs a KV connector on both sides (Ray's P/D guide: NIXL, kv_both).
    for (const side of [app.args.prefill_config, app.args.decode_config]) {
      expect(side.engine_kwargs.kv_transfer_config).toEqual({
        kv_connector: 'NixlConnector',
        kv_role: 'kv_both',
      });
    }
    const groups = (rs.spec as any).rayClusterConfig.workerGroupSpecs;
    expect(
      groups.map((g: any) => [
        g.groupName,
        g.replicas,
        g.template.spec.containers[0].resources.limits['nvidia.com/gpu'],
      ]),
    ).toEqual([
      ['prefill-workers', 1, 1],
      ['decode-workers', 3, 2],
    ]);
  });

  it('passes no KV connector in aggregated mode', () => {
    const app = serveConfig(
      desiredObjects(kuberayProvider, qwen(), v1).objects[0],
    ).applications[0];
    expect(
      app.args.llm_configs[0].engine_kwargs?.kv_transfer_config,
    ).toBeUndefined();
  });

  it('runs P/D on a Ray at least the documented minimum', () => {
    const [major, minor] = RAY_VERSION.split('.').map(Number);
    const [minMajor, minMinor] = MIN_PD_RAY_VERSION.split('.').map(Number);
    expect(major * 1000 + minor).toBeGreaterThanOrEqual(
      minMajor * 1000 + minMinor,
    );
  });

  it('rejects a custom model, naming the field', () => {
    const d = qwen();
    d.spec.model = { source: 'custom' };
    expect(() => desiredObjects(kuberayProvider, d, v1)).toThrow(
      TransformError,
    );
    expect(() => desiredObjects(kuberayProvider, d, v1)).toThrow(
      /^spec\.model\.id: /,
    );
  });

  it('mounts storage volumes on the head and every worker group, and creates the PVC of a sized volume', () => {
    const d = testdata('storage-modeldeployment.yaml') as ModelDeployment;
    d.metadata!.uid = '00000000-0000-0000-0000-000000000005';
    d.spec.serving = { mode: 'disaggregated' };
    delete d.spec.resources;
    d.spec.scaling = {
      prefill: { replicas: 1, gpu: { count: 1 } },
      decode: { replicas: 2, gpu: { count: 1 } },
    };
    const [rs, ...rest] = desiredObjects(kuberayProvider, d, v1).objects;
    const volumes = [
      {
        name: 'model-cache',
        persistentVolumeClaim: { claimName: 'pvc-claim' },
      },
      {
        name: 'compile',
        persistentVolumeClaim: { claimName: 'qwen-ray-storage-compile' },
      },
      {
        name: 'datasets',
        persistentVolumeClaim: { claimName: 'team-datasets', readOnly: true },
      },
    ];
    const mounts = [
      { name: 'model-cache', mountPath: '/model-cache' },
      { name: 'compile', mountPath: '/compilation-cache' },
      { name: 'datasets', mountPath: '/data', readOnly: true },
    ];
    const cacheEnv = [
      { name: 'HF_HOME', value: '/model-cache' },
      { name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' },
    ];
    const cluster = (rs.spec as any).rayClusterConfig;
    const pods = [cluster.headGroupSpec, ...cluster.workerGroupSpecs].map(
      (g: any) => g.template.spec,
    );
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.volumes).toEqual(volumes);
      expect(pod.containers[0].volumeMounts).toEqual(mounts);
    }
    expect(pods[0].containers[0].env).toEqual(cacheEnv);
    expect(pods[1].containers[0].env).toEqual([
      { name: 'LOG_LEVEL', value: 'debug' },
      ...cacheEnv,
    ]);
    expect(rest).toHaveLength(1);
    expect(rest[0]).toMatchObject({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: 'qwen-ray-storage-compile',
        ownerReferences: [
          {
            kind: 'ModelDeployment',
            name: 'qwen-ray-storage',
            controller: true,
          },
        ],
      },
      spec: {
        accessModes: ['ReadWriteMany'],
        resources: { requests: { storage: '50Gi' } },
      },
    });
  });

  it('keeps HF_HOME when spec.env sets it', () => {
    const d = testdata('storage-modeldeployment.yaml') as ModelDeployment;
    d.spec.env = [{ name: 'HF_HOME', value: '/elsewhere' }];
    const worker = (
      desiredObjects(kuberayProvider, d, v1).objects[0].spec as any
    ).rayClusterConfig.workerGroupSpecs[0];
    expect(worker.template.spec.containers[0].env).toEqual([
      { name: 'HF_HOME', value: '/elsewhere' },
      { name: 'VLLM_CACHE_ROOT', value: '/compilation-cache' },
    ]);
  });

  it('fails a volume it cannot mount, naming the field', () => {
    const d = qwen();
    d.spec.model.storage = {
      volumes: [{ name: 'data', claimName: 'team-data' }],
    };
    expect(() => desiredObjects(kuberayProvider, d, v1)).toThrow(
      TransformError,
    );
    expect(() => desiredObjects(kuberayProvider, d, v1)).toThrow(
      /^spec\.model\.storage\.volumes\[0\]\.mountPath: /,
    );
  });

  it('checks overrides against the seed keys', () => {
    expect(
      checkOverrides(
        { head: { resources: { cpu: '4' }, replicsa: 1 } },
        KUBERAY_OVERRIDES,
      ).unknown,
    ).toEqual(['spec.provider.overrides.head.replicsa']);
    expect(
      checkOverrides({ head: { resources: { memory: 8 } } }, KUBERAY_OVERRIDES)
        .errors,
    ).toEqual([
      'spec.provider.overrides.head.resources.memory must be a string, got a number: fix the value in spec.provider.overrides',
    ]);
  });

  it('types engine argument values', () => {
    expect([typed('0.75'), typed('8'), typed('true'), typed('awq')]).toEqual([
      0.75,
      8,
      true,
      'awq',
    ]);
  });
});

describe('KubeRay status mapping (Ready condition; serviceStatus deprecated)', () => {
  const rs = (status: object) => ({
    metadata: { name: 'qwen-ray' },
    spec: { rayClusterConfig: { workerGroupSpecs: [{ replicas: 2 }] } },
    status,
  });
  const ready = (status: string, reason: string, message = '') => ({
    conditions: [{ type: 'Ready', status, reason, message }],
  });

  it('Ready True is Running with replicas and the serve endpoint', () => {
    const s = mapKubeRayStatus(
      qwen(),
      rs({
        ...ready('True', 'NonZeroServeEndpoints'),
        activeServiceStatus: {
          rayClusterStatus: {
            readyWorkerReplicas: 2,
            availableWorkerReplicas: 2,
          },
        },
      }),
    );
    expect(s).toEqual({
      phase: 'Running',
      message: 'RayService is ready',
      ready: true,
      reason: 'NonZeroServeEndpoints',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint: { service: 'qwen-ray-serve-svc', port: 8000 },
    });
  });
  it('Ready False while initializing is Deploying', () => {
    expect(
      mapKubeRayStatus(
        qwen(),
        rs(ready('False', 'Initializing', 'waiting for cluster')),
      ),
    ).toMatchObject({
      phase: 'Deploying',
      message: 'waiting for cluster',
      reason: 'Initializing',
    });
  });
  it('a timeout or unhealthy application is Failed with the serve statuses', () => {
    const failed = mapKubeRayStatus(
      qwen(),
      rs({
        ...ready('False', 'InitializingTimeout', 'RayService timed out'),
        activeServiceStatus: {
          applicationStatuses: {
            llm: { status: 'DEPLOY_FAILED', message: 'CUDA out of memory' },
          },
        },
      }),
    );
    expect(failed).toMatchObject({
      phase: 'Failed',
      message: 'RayService timed out; llm: CUDA out of memory',
    });
  });
  it('falls back to the deprecated serviceStatus (seed 000 section 4.9)', () => {
    expect(
      mapKubeRayStatus(qwen(), rs({ serviceStatus: 'Running' })).phase,
    ).toBe('Running');
    expect(
      mapKubeRayStatus(qwen(), rs({ serviceStatus: 'Pending' })).phase,
    ).toBe('Pending');
    expect(
      mapKubeRayStatus(
        qwen(),
        rs({ serviceStatus: 'FailedToGetOrCreateRayCluster' }),
      ).phase,
    ).toBe('Failed');
    expect(mapKubeRayStatus(qwen(), rs({})).phase).toBe('Deploying');
  });
});
