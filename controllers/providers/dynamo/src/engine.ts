/**
 * Command lines of Dynamo's worker processes (`python3 -m dynamo.<engine>`),
 * with the engine flags of seed 000 section 15: context length, trust remote
 * code, prefix caching, eager mode, tensor parallelism, `engine.args` and
 * `engine.extraArgs`.
 */
import {
  type ModelDeploymentSpec,
  resolveServedName,
} from '@runway-portal/plugin-runway-common';
import { TransformError } from '@runway-portal/provider-shared';

export type DynamoEngine = 'vllm' | 'sglang' | 'trtllm';
export const DYNAMO_ENGINES: readonly DynamoEngine[] = [
  'vllm',
  'sglang',
  'trtllm',
];

/** Which worker: one aggregated worker group, or one side of a prefill/decode pair. */
export type WorkerRole = 'aggregated' | 'prefill' | 'decode';

/** The DynamoGraphDeployment API version the command is written for (their worker flags differ). */
export type DynamoApiVersion = 'v1alpha1' | 'v1beta1';

export interface WorkerCommand {
  /** Python module run by the worker, e.g. `dynamo.vllm`. */
  module: string;
  /** Arguments after `python3 -m <module>`. */
  args: string[];
  /** Settings the engine cannot honour, as warnings naming the field. */
  warnings: string[];
}

/** vLLM's NIXL connector settings used by Dynamo's current disaggregated examples. */
export const VLLM_KV_TRANSFER_CONFIG =
  '{"kv_connector":"NixlConnector","kv_role":"kv_both"}';

const FLAGS: Record<
  DynamoEngine,
  { model: string; contextLength?: string; tensorParallel: string }
> = {
  vllm: {
    model: '--model',
    contextLength: '--max-model-len',
    tensorParallel: '--tensor-parallel-size',
  },
  sglang: {
    model: '--model-path',
    contextLength: '--context-length',
    tensorParallel: '--tp',
  },
  trtllm: { model: '--model-path', tensorParallel: '--tensor-parallel-size' },
};

const ARG_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Engine flags the structured fields turn into (everything except model, role and args). */
function structuredFlags(
  engine: DynamoEngine,
  spec: ModelDeploymentSpec,
  gpus: number,
  warnings: string[],
): string[] {
  const e = spec.engine ?? {};
  const flags: string[] = [];
  // Always explicit: the gateway and status advertise this name, and the workers would otherwise serve the full id.
  const served = resolveServedName(spec);
  if (served) flags.push('--served-model-name', served);
  if (e.contextLength !== undefined) {
    const flag = FLAGS[engine].contextLength;
    if (flag) flags.push(flag, String(e.contextLength));
    else
      warnings.push(
        'spec.engine.contextLength is ignored for TensorRT-LLM: context length is set when the engine is built',
      );
  }
  if (e.trustRemoteCode) {
    if (engine === 'trtllm')
      warnings.push(
        'spec.engine.trustRemoteCode is ignored for TensorRT-LLM: it is a build-time setting',
      );
    else flags.push('--trust-remote-code');
  }
  // Only non-default choices become flags: both engines cache prefixes and use CUDA graphs by default.
  if (e.enablePrefixCaching === false) {
    if (engine === 'vllm') flags.push('--no-enable-prefix-caching');
    if (engine === 'sglang') flags.push('--disable-radix-cache');
  }
  if (e.enforceEager === true) {
    if (engine === 'vllm') flags.push('--enforce-eager');
    if (engine === 'sglang') flags.push('--disable-cuda-graph');
  }
  if (gpus > 1) flags.push(FLAGS[engine].tensorParallel, String(gpus));
  return flags;
}

/** Flags that make a worker the prefill or decode side of a disaggregated pair. */
function roleFlags(
  engine: DynamoEngine,
  role: WorkerRole,
  version: DynamoApiVersion,
): string[] {
  if (role === 'aggregated') return [];
  if (engine === 'vllm' && version === 'v1alpha1') {
    // The flag of the Dynamo releases that served v1alpha1 (seed 000 example 3).
    return role === 'prefill' ? ['--is-prefill-worker'] : [];
  }
  if (engine === 'vllm')
    return [
      '--disaggregation-mode',
      role,
      '--kv-transfer-config',
      VLLM_KV_TRANSFER_CONFIG,
    ];
  return ['--disaggregation-mode', role];
}

/** `engine.args` as `--key value` (sorted, so the output is stable), then `engine.extraArgs` verbatim. */
function userFlags(spec: ModelDeploymentSpec): string[] {
  const flags: string[] = [];
  const args = spec.engine?.args ?? {};
  for (const key of Object.keys(args).sort()) {
    if (!ARG_KEY.test(key)) {
      throw new TransformError(
        'spec.engine.args',
        `key ${JSON.stringify(
          key,
        )} is not a flag name: use letters, digits, '-', '_' or '.', without the leading '--'`,
      );
    }
    flags.push(`--${key}`);
    if (args[key] !== '') flags.push(args[key]);
  }
  return [...flags, ...(spec.engine?.extraArgs ?? [])];
}

/** The worker command for one role of a deployment. */
export function workerCommand(
  engine: DynamoEngine,
  spec: ModelDeploymentSpec,
  role: WorkerRole,
  gpus: number,
  version: DynamoApiVersion,
): WorkerCommand {
  const warnings: string[] = [];
  const args: string[] = [];
  if (spec.model?.id) args.push(FLAGS[engine].model, spec.model.id);
  args.push(...roleFlags(engine, role, version));
  args.push(...structuredFlags(engine, spec, gpus, warnings));
  args.push(...userFlags(spec));
  return { module: `dynamo.${engine}`, args, warnings };
}

const SHELL_SAFE = /^[A-Za-z0-9_\-./:=@,+%]+$/;

/** Quotes one word for `/bin/sh -c` (single quotes, so nothing inside is expanded). */
export function shellQuote(word: string): string {
  if (SHELL_SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The whole command as one `/bin/sh -c` string, as v1alpha1 deployments write it (seed 000 section 4.2). */
export function shellCommand(command: WorkerCommand): string {
  return ['python3', '-m', command.module, ...command.args]
    .map(shellQuote)
    .join(' ');
}
