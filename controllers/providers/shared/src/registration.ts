/**
 * A provider's InferenceProviderConfig: applied on start-up (capabilities,
 * selection and compatibility rules, documentation) and its status kept
 * current: ready, version, lastHeartbeat (every interval) and the detected
 * upstream CRD version.
 */
import type { KubeClient, Logger } from '@runway-portal/controller-runtime';
import {
  type Condition,
  DEPLOYMENTS_API_VERSION,
} from '@runway-portal/plugin-runway-common';
import { crdName } from './crdVersion';
import type { ProviderDefinition } from './definition';
import { InferenceProviderConfigs } from './resources';

/** @public */
export interface RegistrationStatus {
  ready: boolean;
  version: string;
  lastHeartbeat: string;
  upstreamCRDVersion?: string;
  upstreamSchemaHash?: string;
  /** `Ready`, with the reason the portal and the core show for a provider that is not ready. */
  conditions: Condition[];
}

/**
 * The registration status a provider reports (pure). Ready means: the
 * upstream CRD is installed at a version this provider supports. That the
 * controller runs is what `lastHeartbeat` says; readers judge its age (the
 * core). `readySince`: when `ready` last changed (kept as the condition's
 * lastTransitionTime); defaults to now.
 *
 * @public
 */
export function registrationStatus(
  definition: Pick<ProviderDefinition, 'version' | 'upstream'>,
  now: Date,
  upstreamVersion: string | undefined,
  upstreamSchemaHash?: string,
  readySince?: string,
): RegistrationStatus {
  // Whole seconds: the CRD's date-time format, and what Go's metav1.Time writes.
  const stamp = `${now.toISOString().slice(0, 19)}Z`;
  const ready = Boolean(upstreamVersion);
  const crd = crdName(definition.upstream);
  const supported = definition.upstream.versions
    .map(v => `${definition.upstream.group}/${v}`)
    .join(', ');
  const condition: Condition = ready
    ? {
        type: 'Ready',
        status: 'True',
        reason: 'UpstreamCRDInstalled',
        message: `Upstream CRD ${crd} installed; writing ${upstreamVersion}`,
        lastTransitionTime: readySince ?? stamp,
      }
    : {
        type: 'Ready',
        status: 'False',
        reason: 'CRDNotInstalled',
        message: `Upstream CRD ${crd} is not installed at a supported version (${supported}): install its operator`,
        lastTransitionTime: readySince ?? stamp,
      };
  return {
    ready,
    version: definition.version,
    lastHeartbeat: stamp,
    ...(upstreamVersion ? { upstreamCRDVersion: upstreamVersion } : {}),
    ...(upstreamVersion && upstreamSchemaHash ? { upstreamSchemaHash } : {}),
    conditions: [condition],
  };
}

export class Registration {
  private timer?: NodeJS.Timeout;
  private upstreamVersion?: string;
  private upstreamSchemaHash?: string;
  private specApplied = false;
  private heartbeatWritten = false;
  private writing: Promise<void> = Promise.resolve();
  /** The last ready value written and since when (the Ready condition's lastTransitionTime). */
  private lastReady?: { ready: boolean; since: string };

  constructor(
    private readonly client: KubeClient,
    private readonly definition: ProviderDefinition,
    private readonly fieldManager: string,
    private readonly logger: Logger,
    private readonly options: { intervalMs: number; now: () => Date },
  ) {}

  registered(): boolean {
    return this.heartbeatWritten;
  }

  async start(): Promise<void> {
    this.timer = setInterval(() => void this.beat(), this.options.intervalMs);
    this.timer.unref();
    await this.beat();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  setUpstreamVersion(version: string | undefined, schema?: string): void {
    this.upstreamVersion = version;
    this.upstreamSchemaHash = schema;
    void this.beat();
  }

  /** One heartbeat; writes run one after another so an older one never lands last. */
  beat(): Promise<void> {
    this.writing = this.writing
      .then(() => this.write())
      .catch(err => {
        this.logger.error(
          'could not update the provider registration; retrying at the next heartbeat',
          { error: err },
        );
      });
    return this.writing;
  }

  private async write(): Promise<void> {
    const name = this.definition.name;
    const { metadata, spec } = this.definition.registration;
    if (!this.specApplied) {
      await this.client.apply(
        InferenceProviderConfigs,
        {
          apiVersion: DEPLOYMENTS_API_VERSION,
          kind: 'InferenceProviderConfig',
          metadata: { ...metadata, name },
          spec,
        },
        { fieldManager: this.fieldManager, force: true },
      );
      this.specApplied = true;
    }
    const computed = registrationStatus(
      this.definition,
      this.options.now(),
      this.upstreamVersion,
      this.upstreamSchemaHash,
    );
    const keep =
      this.lastReady?.ready === computed.ready
        ? this.lastReady.since
        : undefined;
    const status = keep
      ? registrationStatus(
          this.definition,
          this.options.now(),
          this.upstreamVersion,
          this.upstreamSchemaHash,
          keep,
        )
      : computed;
    await this.client.apply(
      InferenceProviderConfigs,
      {
        apiVersion: DEPLOYMENTS_API_VERSION,
        kind: 'InferenceProviderConfig',
        metadata: { name },
        status,
      },
      { fieldManager: this.fieldManager, force: true, subresource: 'status' },
    );
    if (this.lastReady?.ready !== status.ready)
      this.lastReady = { ready: status.ready, since: status.lastHeartbeat };
    this.heartbeatWritten = true;
  }
}
