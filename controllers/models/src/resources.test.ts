import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildJob,
  buildPvc,
  DOWNLOADER_UID,
  type ModelObject,
  PVC_UID_ANNOTATION,
} from './resources';

function model(
  source: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): ModelObject {
  return {
    apiVersion: 'models.airunway.ai/v1alpha1',
    kind: 'Model',
    metadata: { name: 'llama-3-8b', namespace: 'ml', uid: 'uid-1' },
    spec: {
      source,
      storage: { storageClass: 'longhorn', size: '20Gi' },
      ...extra,
    },
  } as ModelObject;
}

const owner = {
  apiVersion: 'models.airunway.ai/v1alpha1',
  kind: 'Model',
  name: 'llama-3-8b',
  uid: 'uid-1',
  controller: true,
  blockOwnerDeletion: true,
};

describe('buildPvc', () => {
  it('has the seed name, owner reference, storage class, size and default access mode', () => {
    const pvc = buildPvc(model({ url: { url: 'https://x/y' } })) as any;
    expect(pvc.metadata).toMatchObject({
      name: 'model-llama-3-8b',
      namespace: 'ml',
      ownerReferences: [owner],
    });
    expect(pvc.spec).toEqual({
      storageClassName: 'longhorn',
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '20Gi' } },
    });
  });

  it('uses the given access modes', () => {
    const m = model({ url: { url: 'https://x/y' } });
    m.spec.storage.accessModes = ['ReadWriteMany'];
    expect((buildPvc(m) as any).spec.accessModes).toEqual(['ReadWriteMany']);
  });
});

describe('buildJob', () => {
  it("runs as the downloader image's numeric user (a pod's runAsNonRoot can only verify a number)", () => {
    const dockerfile = readFileSync(
      join(__dirname, 'downloader', 'Dockerfile'),
      'utf8',
    );
    expect(dockerfile).toMatch(
      new RegExp(`^USER ${DOWNLOADER_UID}:${DOWNLOADER_UID}$`, 'm'),
    );
  });

  const env = (job: any) => job.spec.template.spec.containers[0].env;

  it('has the seed name, owner reference, backoff limit, TTL, resources, PVC mount and node selector', () => {
    const job = buildJob(
      model(
        { huggingFace: { repoId: 'meta/llama', revision: 'v2' } },
        { nodeSelector: { zone: 'a' } },
      ),
      {
        image: 'downloader:test',
        pvcUid: 'pvc-uid',
      },
    ) as any;
    expect(job.metadata).toMatchObject({
      name: 'model-download-llama-3-8b',
      ownerReferences: [owner],
      annotations: { [PVC_UID_ANNOTATION]: 'pvc-uid' },
    });
    expect(job.spec).toMatchObject({
      backoffLimit: 3,
      ttlSecondsAfterFinished: 3600,
    });
    const pod = job.spec.template.spec;
    expect(pod).toMatchObject({
      restartPolicy: 'Never',
      automountServiceAccountToken: false,
      nodeSelector: { zone: 'a' },
    });
    expect(pod.volumes).toEqual([
      {
        name: 'model-storage',
        persistentVolumeClaim: { claimName: 'model-llama-3-8b' },
      },
    ]);
    expect(pod.containers[0]).toMatchObject({
      name: 'downloader',
      image: 'downloader:test',
      volumeMounts: [{ name: 'model-storage', mountPath: '/models' }],
      resources: {
        requests: { memory: '512Mi', cpu: '500m' },
        limits: { memory: '2Gi', cpu: '2' },
      },
    });
    expect(pod.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      fsGroup: 1000,
      fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(pod.containers[0].securityContext).toEqual({
      allowPrivilegeEscalation: false,
      capabilities: { drop: ['ALL'] },
    });
    expect(job.spec.podFailurePolicy.rules[0]).toEqual({
      action: 'FailJob',
      onExitCodes: { containerName: 'downloader', operator: 'In', values: [2] },
    });
  });

  it('HuggingFace: repo, revision and HF_TOKEN from the Secret, optional', () => {
    expect(
      env(
        buildJob(
          model(
            { huggingFace: { repoId: 'meta/llama' } },
            { credentialsSecret: 'hf' },
          ),
        ),
      ),
    ).toEqual([
      { name: 'MODEL_SOURCE', value: 'huggingface' },
      { name: 'HF_REPO_ID', value: 'meta/llama' },
      { name: 'HF_REVISION', value: 'main' },
      { name: 'MODEL_DEST', value: '/models' },
      { name: 'MODEL_STORAGE_SIZE', value: '20Gi' },
      {
        name: 'HF_TOKEN',
        valueFrom: {
          secretKeyRef: { name: 'hf', key: 'HF_TOKEN', optional: true },
        },
      },
    ]);
  });

  it('S3: bucket, key, endpoint, region and both AWS keys, optional', () => {
    expect(
      env(
        buildJob(
          model(
            {
              s3: {
                bucket: 'b',
                key: 'k/',
                endpoint: 'http://minio:9000',
                region: 'eu-west-1',
              },
            },
            { credentialsSecret: 's3' },
          ),
        ),
      ),
    ).toEqual([
      { name: 'MODEL_SOURCE', value: 's3' },
      { name: 'S3_BUCKET', value: 'b' },
      { name: 'S3_KEY', value: 'k/' },
      { name: 'S3_ENDPOINT', value: 'http://minio:9000' },
      { name: 'AWS_REGION', value: 'eu-west-1' },
      { name: 'MODEL_DEST', value: '/models' },
      { name: 'MODEL_STORAGE_SIZE', value: '20Gi' },
      {
        name: 'AWS_ACCESS_KEY_ID',
        valueFrom: {
          secretKeyRef: {
            name: 's3',
            key: 'AWS_ACCESS_KEY_ID',
            optional: true,
          },
        },
      },
      {
        name: 'AWS_SECRET_ACCESS_KEY',
        valueFrom: {
          secretKeyRef: {
            name: 's3',
            key: 'AWS_SECRET_ACCESS_KEY',
            optional: true,
          },
        },
      },
    ]);
  });

  it('URL: the URL, no secret, no node selector when none is set', () => {
    const job = buildJob(
      model(
        { url: { url: 'https://x/m.gguf' } },
        { credentialsSecret: 'ignored' },
      ),
    ) as any;
    expect(env(job)).toEqual([
      { name: 'MODEL_SOURCE', value: 'url' },
      { name: 'MODEL_URL', value: 'https://x/m.gguf' },
      { name: 'MODEL_DEST', value: '/models' },
      { name: 'MODEL_STORAGE_SIZE', value: '20Gi' },
    ]);
    expect(job.spec.template.spec.nodeSelector).toBeUndefined();
    expect(job.spec.template.spec.containers[0].image).toBe(
      'ghcr.io/runway-portal/airunway-model-downloader:latest',
    );
  });

  it('is the same object for the same Model (deterministic: no second Job after a restart)', () => {
    const m = model({ url: { url: 'https://x/m' } });
    expect(buildJob(m)).toEqual(buildJob(m));
  });
});
