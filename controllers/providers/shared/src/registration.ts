/**
 * A provider's InferenceProviderConfig: applied on start-up (capabilities,
 * selection and compatibility rules, documentation) and its status kept
 * current: ready, version, lastHeartbeat (every interval) and the detected
 * upstream CRD version.
 */
import type { KubeClient, Logger } from '@runway-portal/controller-runtime';
import { DEPLOYMENTS_API_VERSION } from '@runway-portal/plugin-runway-common';
import type { ProviderDefinition } from './definition';
import { InferenceProviderConfigs } from './resources';

export interface RegistrationStatus {
  ready: boolean;
  version: string;
  lastHeartbeat: string;
  upstreamCRDVersion?: string;
  upstreamSchemaHash?: string;
}

/** The registration status a provider reports (pure). */
export function registrationStatus(
  definition: Pick<ProviderDefinition, 'version'>,
  now: Date,
  upstreamVersion: string | undefined,
  upstreamSchemaHash?: string,
): RegistrationStatus {
  return {
    ready: true,
    version: definition.version,
    // Whole seconds: the CRD's date-time format, and what Go's metav1.Time writes.
    lastHeartbeat: `${now.toISOString().slice(0, 19)}Z`,
    ...(upstreamVersion ? { upstreamCRDVersion: upstreamVersion } : {}),
    ...(upstreamVersion && upstreamSchemaHash ? { upstreamSchemaHash } : {}),
  };
}

export class Registration {
  private timer?: NodeJS.Timeout;
  private upstreamVersion?: string;
  private upstreamSchemaHash?: string;
  private specApplied = false;
  private heartbeatWritten = false;
  private writing: Promise<void> = Promise.resolve();

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
    this.writing = this.writing.then(() => this.write()).catch(err => {
      this.logger.error('could not update the provider registration; retrying at the next heartbeat', { error: err });
    });
    return this.writing;
  }

  private async write(): Promise<void> {
    const name = this.definition.name;
    const { metadata, spec } = this.definition.registration;
    if (!this.specApplied) {
      await this.client.apply(
        InferenceProviderConfigs,
        { apiVersion: DEPLOYMENTS_API_VERSION, kind: 'InferenceProviderConfig', metadata: { ...metadata, name }, spec },
        { fieldManager: this.fieldManager, force: true },
      );
      this.specApplied = true;
    }
    await this.client.apply(
      InferenceProviderConfigs,
      {
        apiVersion: DEPLOYMENTS_API_VERSION,
        kind: 'InferenceProviderConfig',
        metadata: { name },
        status: registrationStatus(this.definition, this.options.now(), this.upstreamVersion, this.upstreamSchemaHash),
      },
      { fieldManager: this.fieldManager, force: true, subresource: 'status' },
    );
    this.heartbeatWritten = true;
  }
}
