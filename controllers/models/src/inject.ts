/**
 * Seed 003's pod-injection webhook, as a pure function: given a pod and a
 * way to look up Models, it returns the pod with the model volumes, mounts,
 * `MODEL_{NAME}_*` variables and the `models.airunway.ai/injected` label
 * added, or a denial with the seed's message. The HTTP side
 * (`injectionWebhook`) turns that into an AdmissionReview with an RFC 6902
 * patch.
 */
import {
  jsonPatch,
  type KubeObject,
  type WebhookHandler,
} from '@runway-portal/controller-runtime';
import {
  defaultModelMountPath,
  DNS_LABEL_PATTERN,
  MODEL_ANNOTATIONS,
  MODEL_INJECTED_LABEL,
  modelEnvPrefix,
  modelPvcName,
  modelSourceType,
  modelVolumeName,
} from '@runway-portal/plugin-runway-common';
import type { ModelObject } from './resources';

export const INJECT_PATH = '/mutate';

/** A Model by name in the pod's namespace: the object, or `notFound` with the lookup's error text. */
export type ModelLookup = (
  namespace: string,
  name: string,
) => Promise<{ model: ModelObject } | { notFound: string }>;

export type InjectResult =
  | { allowed: true; pod?: KubeObject; message: string }
  | { allowed: false; message: string };

interface Container {
  name: string;
  env?: Array<Record<string, unknown>>;
  volumeMounts?: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

function booleanAnnotation(
  annotations: Record<string, string>,
  key: string,
): boolean | string {
  const value = annotations[key];
  if (value === undefined || value.trim() === '') return true;
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  return `invalid value ${JSON.stringify(
    value,
  )} for annotation ${key}: use "true" or "false"`;
}

function envFor(
  model: ModelObject,
  mountPath: string,
): Array<{ name: string; value: string }> {
  const name = model.metadata!.name!;
  const prefix = modelEnvPrefix(name);
  const source = model.spec.source;
  const type = modelSourceType(source);
  return [
    { name: `${prefix}_NAME`, value: name },
    ...(model.spec.version
      ? [{ name: `${prefix}_VERSION`, value: model.spec.version }]
      : []),
    ...(type ? [{ name: `${prefix}_SOURCE_TYPE`, value: type }] : []),
    ...(source?.huggingFace
      ? [{ name: `${prefix}_REPO_ID`, value: source.huggingFace.repoId }]
      : []),
    ...(source?.url ? [{ name: `${prefix}_URL`, value: source.url.url }] : []),
    ...(source?.s3
      ? [{ name: `${prefix}_BUCKET`, value: source.s3.bucket }]
      : []),
    { name: `${prefix}_MOUNT_PATH`, value: mountPath },
  ];
}

/**
 * Seed 003 "Webhook Logic": no `inject` annotation → allowed unchanged;
 * every named Model must exist and be Ready; options from the annotations.
 * `mount-path` is the mount path with one model and the base path
 * (`{base}/{name}`) with several.
 */
export async function injectModels(
  pod: KubeObject,
  namespace: string,
  lookup: ModelLookup,
): Promise<InjectResult> {
  const annotations = (pod.metadata?.annotations ?? {}) as Record<
    string,
    string
  >;
  const inject = annotations[MODEL_ANNOTATIONS.inject];
  if (inject === undefined)
    return { allowed: true, message: 'no injection requested' };

  const names = inject
    .split(',')
    .map(n => n.trim())
    .filter(n => n !== '');
  if (names.length === 0) {
    return {
      allowed: false,
      message: `invalid value ${JSON.stringify(inject)} for annotation ${
        MODEL_ANNOTATIONS.inject
      }: list one or more Model names, separated by commas`,
    };
  }
  const badName = names.find(n => !new RegExp(DNS_LABEL_PATTERN).test(n));
  if (badName !== undefined) {
    return {
      allowed: false,
      message: `invalid value ${JSON.stringify(inject)} for annotation ${
        MODEL_ANNOTATIONS.inject
      }: ${JSON.stringify(
        badName,
      )} is not a Model name (lowercase letters, digits and "-")`,
    };
  }
  if (new Set(names).size !== names.length) {
    return {
      allowed: false,
      message: `invalid value ${JSON.stringify(inject)} for annotation ${
        MODEL_ANNOTATIONS.inject
      }: a Model is named twice`,
    };
  }
  const readOnly = booleanAnnotation(annotations, MODEL_ANNOTATIONS.readOnly);
  if (typeof readOnly === 'string')
    return { allowed: false, message: readOnly };
  const injectEnv = booleanAnnotation(annotations, MODEL_ANNOTATIONS.injectEnv);
  if (typeof injectEnv === 'string')
    return { allowed: false, message: injectEnv };
  const mountPathOption = annotations[MODEL_ANNOTATIONS.mountPath]?.trim();
  if (
    mountPathOption !== undefined &&
    mountPathOption !== '' &&
    !mountPathOption.startsWith('/')
  ) {
    return {
      allowed: false,
      message: `invalid value ${JSON.stringify(
        mountPathOption,
      )} for annotation ${
        MODEL_ANNOTATIONS.mountPath
      }: use an absolute path such as "/models"`,
    };
  }

  const spec = (
    pod as {
      spec?: {
        containers?: Container[];
        volumes?: Array<Record<string, unknown>>;
      };
    }
  ).spec;
  const containers = spec?.containers ?? [];
  const containerName = annotations[MODEL_ANNOTATIONS.container]?.trim();
  const target = containerName
    ? containers.find(c => c.name === containerName)
    : containers[0];
  if (!target) {
    const known = containers.map(c => c.name).join(', ') || 'none';
    return {
      allowed: false,
      message: containerName
        ? `invalid value ${JSON.stringify(containerName)} for annotation ${
            MODEL_ANNOTATIONS.container
          }: the pod has no such container (containers: ${known})`
        : 'the pod has no container to inject models into',
    };
  }

  const volumes = (spec!.volumes = spec!.volumes ?? []);
  const mounts = (target.volumeMounts = target.volumeMounts ?? []);
  const env = injectEnv ? (target.env = target.env ?? []) : undefined;
  for (const name of names) {
    const found = await lookup(namespace, name);
    if ('notFound' in found)
      return {
        allowed: false,
        message: `model ${JSON.stringify(name)} not found: ${found.notFound}`,
      };
    const model = found.model;
    if (model.status?.phase !== 'Ready') {
      return {
        allowed: false,
        message: `model ${JSON.stringify(name)} is not ready (phase: ${
          model.status?.phase ?? ''
        })`,
      };
    }
    let mountPath = defaultModelMountPath(name);
    if (mountPathOption)
      mountPath =
        names.length === 1
          ? mountPathOption
          : `${mountPathOption.replace(/\/+$/, '')}/${name}`;
    const volumeName = modelVolumeName(name);
    if (!volumes.some(v => v.name === volumeName)) {
      volumes.push({
        name: volumeName,
        persistentVolumeClaim: { claimName: modelPvcName(name), readOnly },
      });
    }
    if (!mounts.some(m => m.name === volumeName))
      mounts.push({ name: volumeName, mountPath, readOnly });
    if (env) {
      for (const variable of envFor(model, mountPath)) {
        if (!env.some(e => e.name === variable.name)) env.push(variable);
      }
    }
  }
  pod.metadata = {
    ...pod.metadata,
    labels: { ...pod.metadata?.labels, [MODEL_INJECTED_LABEL]: 'true' },
  };
  return { allowed: true, pod, message: 'models injected' };
}

function reply(uid: string, response: Record<string, unknown>) {
  return {
    status: 200,
    body: {
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      response: { uid, ...response },
    },
  };
}

/**
 * The webhook handler: decodes the AdmissionReview (400 when it is not one),
 * runs `injectModels` and answers with a JSONPatch or a denial. A failing
 * lookup denies with its message; nothing throws out of it.
 */
export function injectionWebhook(lookup: ModelLookup): WebhookHandler {
  return async body => {
    const request = (body as { request?: Record<string, any> } | undefined)
      ?.request;
    if (!request || typeof request.uid !== 'string' || !request.uid) {
      return {
        status: 400,
        body: {
          error:
            'not a valid AdmissionReview (admission.k8s.io/v1): request.uid is missing',
        },
      };
    }
    const pod = request.object as KubeObject | undefined;
    if (!pod || typeof pod !== 'object' || pod.kind !== 'Pod') {
      return {
        status: 400,
        body: {
          error:
            'not a valid AdmissionReview for a Pod: request.object must be a Pod',
        },
      };
    }
    try {
      const namespace =
        request.namespace ?? pod.metadata?.namespace ?? 'default';
      const result = await injectModels(
        structuredClone(pod),
        namespace,
        lookup,
      );
      if (!result.allowed) {
        return reply(request.uid, {
          allowed: false,
          status: { code: 403, reason: 'Forbidden', message: result.message },
        });
      }
      if (!result.pod) return reply(request.uid, { allowed: true });
      const patch = jsonPatch(pod, result.pod);
      return reply(request.uid, {
        allowed: true,
        patchType: 'JSONPatch',
        patch: Buffer.from(JSON.stringify(patch)).toString('base64'),
      });
    } catch (err) {
      return reply(request.uid, {
        allowed: false,
        status: {
          code: 500,
          reason: 'InternalError',
          message: `model injection failed: ${
            (err as Error)?.message ?? String(err)
          }`,
        },
      });
    }
  };
}
