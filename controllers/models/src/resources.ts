/**
 * The objects a Model owns (seed 003 "Naming Conventions" and "Download Job
 * Specifications"): the PVC `model-{name}` and the Job
 * `model-download-{name}`. Pure builders: same Model in, same objects out,
 * so a restarted controller computes the same names and never a second Job.
 *
 * Where the seed installs software at run time (pip, aws-cli, curl), every
 * source runs our one downloader image instead (`src/downloader`), which
 * resumes, verifies, fails fast and prints progress lines.
 */
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  type Model,
  MODEL_API_VERSION,
  MODEL_GROUP,
  modelDownloadJobName,
  modelPvcName,
  modelSourceType,
} from '@runway-portal/plugin-runway-common';

/** The field manager (and event source) of the model operator. */
export const MODELS_FIELD_MANAGER = 'airunway-models';
/** Label on the PVC, the Job and the Job's pods: which Model they belong to. */
export const MODEL_LABEL = `${MODEL_GROUP}/model`;
/** Annotation on the Job: the uid of the PVC it downloads into (a Job made for an older PVC is stale). */
export const PVC_UID_ANNOTATION = `${MODEL_GROUP}/pvc-uid`;
export const MANAGED_BY = {
  'app.kubernetes.io/managed-by': MODELS_FIELD_MANAGER,
};

/** Seed 003: a Job gives up after 3 failed pods. */
export const DOWNLOAD_BACKOFF_LIMIT = 3;
/** Seed 003: a finished Job is kept an hour (its pod log holds the outcome). */
export const DOWNLOAD_TTL_SECONDS = 3600;
export const DOWNLOADER_CONTAINER = 'downloader';
export const MODEL_MOUNT_PATH = '/models';
/** The downloader exits with this code when retrying cannot help (too big, 401, 404): the Job fails at once. */
export const EXIT_CODE_PERMANENT = 2;
export const DEFAULT_DOWNLOADER_IMAGE =
  'ghcr.io/runway-portal/airunway-model-downloader:latest';
/**
 * The downloader's user and group (the image's numeric USER in
 * src/downloader/Dockerfile). The pod's fsGroup makes a fresh volume, owned
 * by root on most storage, writable to it.
 */
export const DOWNLOADER_UID = 1000;

export type ModelObject = Model & KubeObject;

export interface JobOptions {
  /** The downloader image (--downloader-image). */
  image?: string;
  /** Uid of the PVC the Job writes into (recorded in PVC_UID_ANNOTATION). */
  pvcUid?: string;
}

export function ownerReference(model: ModelObject) {
  return {
    apiVersion: MODEL_API_VERSION,
    kind: 'Model',
    name: model.metadata!.name!,
    uid: model.metadata!.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
}

function labels(model: ModelObject): Record<string, string> {
  return { [MODEL_LABEL]: model.metadata!.name!, ...MANAGED_BY };
}

/** PVC `model-{name}`: storage class, size and access modes (default ReadWriteOnce) from spec.storage. */
export function buildPvc(model: ModelObject): KubeObject {
  const storage = model.spec.storage;
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: modelPvcName(model.metadata!.name!),
      namespace: model.metadata!.namespace,
      labels: labels(model),
      ownerReferences: [ownerReference(model)],
    },
    spec: {
      storageClassName: storage.storageClass,
      accessModes: storage.accessModes?.length
        ? storage.accessModes
        : ['ReadWriteOnce'],
      resources: { requests: { storage: storage.size } },
    },
  };
}

function secretEnv(secret: string | undefined, keys: string[]) {
  if (!secret) return [];
  // optional: a missing Secret or key starts the pod anyway; the downloader then says which key it needed.
  return keys.map(key => ({
    name: key,
    valueFrom: { secretKeyRef: { name: secret, key, optional: true } },
  }));
}

/** The downloader's settings per source (read by src/downloader/options.ts). */
export function downloaderEnv(
  model: ModelObject,
): Array<Record<string, unknown>> {
  const { source, storage, credentialsSecret } = model.spec;
  const common = [
    { name: 'MODEL_DEST', value: MODEL_MOUNT_PATH },
    { name: 'MODEL_STORAGE_SIZE', value: storage.size },
  ];
  switch (modelSourceType(source)) {
    case 'huggingface':
      return [
        { name: 'MODEL_SOURCE', value: 'huggingface' },
        { name: 'HF_REPO_ID', value: source.huggingFace!.repoId },
        { name: 'HF_REVISION', value: source.huggingFace!.revision ?? 'main' },
        ...common,
        ...secretEnv(credentialsSecret, ['HF_TOKEN']),
      ];
    case 's3':
      return [
        { name: 'MODEL_SOURCE', value: 's3' },
        { name: 'S3_BUCKET', value: source.s3!.bucket },
        { name: 'S3_KEY', value: source.s3!.key },
        ...(source.s3!.endpoint
          ? [{ name: 'S3_ENDPOINT', value: source.s3!.endpoint }]
          : []),
        ...(source.s3!.region
          ? [{ name: 'AWS_REGION', value: source.s3!.region }]
          : []),
        ...common,
        ...secretEnv(credentialsSecret, [
          'AWS_ACCESS_KEY_ID',
          'AWS_SECRET_ACCESS_KEY',
        ]),
      ];
    case 'url':
      return [
        { name: 'MODEL_SOURCE', value: 'url' },
        { name: 'MODEL_URL', value: source.url!.url },
        ...common,
      ];
    default:
      throw new Error(
        'spec.source must set exactly one of huggingFace, s3 or url',
      );
  }
}

/**
 * Job `model-download-{name}`: backoffLimit 3, TTL one hour, the seed's
 * resources, the Model's node selector, the PVC at /models. Differences from
 * the seed, and why: `restartPolicy: Never` (each attempt is its own pod, so
 * its log keeps its error and `status.failed` counts attempts, which the
 * seed's "failed >= backoffLimit" check reads), a pod failure policy that
 * fails the Job at once on the downloader's "retrying cannot help" exit code,
 * and no service account token (the pod writes to nothing in the cluster).
 */
export function buildJob(
  model: ModelObject,
  options: JobOptions = {},
): KubeObject {
  const name = model.metadata!.name!;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: modelDownloadJobName(name),
      namespace: model.metadata!.namespace,
      labels: labels(model),
      ...(options.pvcUid
        ? { annotations: { [PVC_UID_ANNOTATION]: options.pvcUid } }
        : {}),
      ownerReferences: [ownerReference(model)],
    },
    spec: {
      backoffLimit: DOWNLOAD_BACKOFF_LIMIT,
      ttlSecondsAfterFinished: DOWNLOAD_TTL_SECONDS,
      podFailurePolicy: {
        rules: [
          {
            action: 'FailJob',
            onExitCodes: {
              containerName: DOWNLOADER_CONTAINER,
              operator: 'In',
              values: [EXIT_CODE_PERMANENT],
            },
          },
        ],
      },
      template: {
        metadata: { labels: labels(model) },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          // Admitted under the "restricted" Pod Security Standard.
          securityContext: {
            runAsNonRoot: true,
            runAsUser: DOWNLOADER_UID,
            runAsGroup: DOWNLOADER_UID,
            fsGroup: DOWNLOADER_UID,
            // Ownership is changed once, not on every retry of a large volume.
            fsGroupChangePolicy: 'OnRootMismatch',
            seccompProfile: { type: 'RuntimeDefault' },
          },
          ...(model.spec.nodeSelector &&
          Object.keys(model.spec.nodeSelector).length
            ? { nodeSelector: model.spec.nodeSelector }
            : {}),
          containers: [
            {
              name: DOWNLOADER_CONTAINER,
              image: options.image ?? DEFAULT_DOWNLOADER_IMAGE,
              env: downloaderEnv(model),
              volumeMounts: [
                { name: 'model-storage', mountPath: MODEL_MOUNT_PATH },
              ],
              resources: {
                requests: { memory: '512Mi', cpu: '500m' },
                limits: { memory: '2Gi', cpu: '2' },
              },
              securityContext: {
                allowPrivilegeEscalation: false,
                capabilities: { drop: ['ALL'] },
              },
            },
          ],
          volumes: [
            {
              name: 'model-storage',
              persistentVolumeClaim: { claimName: modelPvcName(name) },
            },
          ],
        },
      },
    },
  };
}
