import { sleep } from '../cache/backoff';
import { KubeClient } from '../kube/client';
import {
  isAlreadyExists,
  isConflict,
  isNotFound,
  KubeApiError,
} from '../kube/errors';
import type { KubeObject } from '../kube/types';
import {
  CustomResourceDefinitions,
  MutatingWebhookConfigurations,
  Secrets,
  ValidatingWebhookConfigurations,
} from '../kube/wellKnown';
import { Logger, silentLogger } from '../observability/logger';
import { crdConversionCaPatch, webhookConfigurationCaPatch } from './caBundle';
import {
  caBundleAfterRotation,
  CertBundle,
  CertHosts,
  generateCA,
  generateServingCert,
  rotationDecision,
  splitPems,
} from './certs';

const DAY = 86_400_000;
const MAX_RETRY_MS = 30_000;

/**
 * How long until the next certificate check: the check interval while all
 * is published; after a failure a short backoff (`retryMs` doubling to 30 s)
 * so that readiness, which waits for every caBundle, follows within seconds.
 */
export function nextCheckDelay(
  healthy: boolean,
  failures: number,
  intervalMs: number,
  retryMs = 1000,
): number {
  if (healthy) return intervalMs;
  return Math.min(
    intervalMs,
    MAX_RETRY_MS,
    retryMs * 2 ** Math.min(failures, 15),
  );
}

/** @public */
export interface CertManagerOptions {
  /** The Secret holding CA and serving certificate, shared by all replicas. */
  secretName: string;
  secretNamespace: string;
  /** Names the serving certificate covers, e.g. `svc.ns.svc` or `127.0.0.1`. */
  hosts: Partial<CertHosts>;
  validatingWebhookConfigurations?: string[];
  mutatingWebhookConfigurations?: string[];
  /** CRDs whose conversion webhook should trust the CA. */
  conversionCrds?: string[];
  caName?: string;
  /** Default 10 years. */
  caValidityMs?: number;
  /** Default 1 year. */
  certValidityMs?: number;
  /** Rotate this long before expiry; default 90 days. */
  lookaheadMs?: number;
  /** How often the Secret and caBundles are checked; default 10 minutes. */
  checkIntervalMs?: number;
  /**
   * While a check failed or a caBundle could not be written (for example a
   * webhook configuration an installer creates after the controller started),
   * retry after this long, doubling up to 30 s; default 1 s.
   */
  retryIntervalMs?: number;
  /**
   * After a new CA is published, wait this long before serving a certificate
   * signed by it, so API servers have reloaded the caBundle; default 10 s.
   */
  caPropagationDelayMs?: number;
  logger?: Logger;
}

interface TlsSecret extends KubeObject {
  type?: string;
  data?: Record<string, string>;
}

/**
 * The webhook server's own PKI, like OPA's cert-controller: a CA and a
 * serving certificate kept in a Secret (so every replica serves the same
 * one), the CA published into the caBundle of the webhook configurations
 * and CRD conversion settings, and rotation before expiry.
 *
 * @public
 */
export class CertManager {
  private readonly hosts: CertHosts;
  private readonly logger: Logger;
  private current?: CertBundle;
  private readonly listeners: Array<(bundle: CertBundle) => void> = [];
  private readonly stopController = new AbortController();
  private loop?: Promise<void>;
  private lastCaBundleOk = false;

  constructor(
    private readonly client: KubeClient,
    private readonly options: CertManagerOptions,
  ) {
    if (!options.secretName)
      throw new Error(
        'webhook.certificates.secretName is required: name the Secret that stores the certificates',
      );
    if (!options.secretNamespace)
      throw new Error(
        'webhook.certificates.secretNamespace is required: the namespace of that Secret',
      );
    this.hosts = {
      dnsNames: options.hosts.dnsNames ?? [],
      ipAddresses: options.hosts.ipAddresses ?? [],
    };
    if (this.hosts.dnsNames.length + this.hosts.ipAddresses.length === 0) {
      throw new Error(
        'webhook.certificates.hosts needs at least one DNS name or IP address, e.g. "my-webhook.my-namespace.svc"',
      );
    }
    this.logger = (options.logger ?? silentLogger).child({
      component: 'cert-manager',
      secret: `${options.secretNamespace}/${options.secretName}`,
    });
  }

  /** Called with the bundle now and after every change (the server swaps its certificate). */
  onCertificate(listener: (bundle: CertBundle) => void): void {
    this.listeners.push(listener);
    if (this.current) listener(this.current);
  }

  certificate(): CertBundle | undefined {
    return this.current;
  }

  /** True once a certificate is loaded and every caBundle was written. */
  isReady(): boolean {
    return this.current !== undefined && this.lastCaBundleOk;
  }

  /**
   * Makes sure a valid certificate exists in the Secret, is in use, and is
   * trusted by the webhook configurations. Safe to call from every replica
   * at once: the Secret is written with optimistic concurrency.
   */
  async ensure(forced?: 'serving' | 'all'): Promise<CertBundle> {
    let force = forced;
    for (let attempt = 0; ; attempt++) {
      const secret = await this.readSecret();
      const stored = secret ? bundleFromSecret(secret) : undefined;
      const now = new Date();
      const decision = force
        ? { rotate: force, reason: 'forced rotation' }
        : rotationDecision(
            stored,
            this.hosts,
            now,
            this.options.lookaheadMs ?? 90 * DAY,
          );
      let bundle = stored;
      if (decision.rotate !== 'none') {
        this.logger.info('issuing certificate', {
          reason: decision.reason,
          scope: decision.rotate,
        });
        bundle = await this.issue(decision.rotate, stored, now);
        try {
          await this.writeSecret(secret, bundle);
        } catch (err) {
          // Another replica wrote first: adopt its certificate instead.
          if ((isConflict(err) || isAlreadyExists(err)) && attempt < 5) {
            force = undefined;
            continue;
          }
          throw err;
        }
      }
      const newCa =
        this.current !== undefined &&
        firstCa(this.current) !== firstCa(bundle!);
      if (newCa) {
        // Trust first (the bundle still holds the old CA), switch after.
        await this.publishCaBundle(bundle!.caCert);
        await sleep(
          this.options.caPropagationDelayMs ?? 10_000,
          this.stopController.signal,
        );
        this.use(bundle!);
      } else {
        this.use(bundle!);
        await this.publishCaBundle(bundle!.caCert);
      }
      return bundle!;
    }
  }

  /** Forces a new serving certificate, or a new CA too with `{ ca: true }`. */
  rotate(options: { ca?: boolean } = {}): Promise<CertBundle> {
    return this.ensure(options.ca ? 'all' : 'serving');
  }

  /**
   * Runs `ensure` now and then every check interval until `stop`; sooner
   * (`nextCheckDelay`) while a check or a caBundle write has failed.
   */
  async start(): Promise<void> {
    await this.ensure();
    const interval = this.options.checkIntervalMs ?? 10 * 60_000;
    this.loop = (async () => {
      let failures = 0;
      while (!this.stopController.signal.aborted) {
        await sleep(
          nextCheckDelay(
            this.isReady(),
            failures,
            interval,
            this.options.retryIntervalMs,
          ),
          this.stopController.signal,
        );
        if (this.stopController.signal.aborted) return;
        try {
          await this.ensure();
        } catch (err) {
          this.logger.warn('certificate check failed; retrying', {
            error: err,
          });
        }
        failures = this.isReady() ? 0 : failures + 1;
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopController.abort();
    await this.loop;
  }

  private use(bundle: CertBundle): void {
    if (
      this.current &&
      this.current.cert === bundle.cert &&
      this.current.key === bundle.key &&
      this.current.caCert === bundle.caCert
    )
      return;
    this.current = bundle;
    for (const listener of this.listeners) listener(bundle);
  }

  private async issue(
    scope: 'serving' | 'all',
    stored: CertBundle | undefined,
    now: Date,
  ): Promise<CertBundle> {
    let ca =
      stored && scope === 'serving'
        ? { cert: stored.caCert, key: stored.caKey }
        : undefined;
    let caBundle = stored?.caCert ?? '';
    if (!ca) {
      const fresh = await generateCA(
        this.options.caName ?? `${this.options.secretName}-ca`,
        this.options.caValidityMs ?? 3650 * DAY,
        now,
      );
      caBundle = caBundleAfterRotation(fresh.cert, stored?.caCert, now);
      ca = { cert: fresh.cert, key: fresh.key };
    }
    const serving = await generateServingCert(
      ca,
      this.hosts,
      this.options.certValidityMs ?? 365 * DAY,
      now,
    );
    return {
      caCert: caBundle,
      caKey: ca.key,
      cert: serving.cert,
      key: serving.key,
    };
  }

  private async readSecret(): Promise<TlsSecret | undefined> {
    try {
      return await this.client.get<TlsSecret>(Secrets, {
        namespace: this.options.secretNamespace,
        name: this.options.secretName,
      });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  private async writeSecret(
    existing: TlsSecret | undefined,
    bundle: CertBundle,
  ): Promise<void> {
    const data = {
      'ca.crt': b64(bundle.caCert),
      'ca.key': b64(bundle.caKey),
      'tls.crt': b64(bundle.cert),
      'tls.key': b64(bundle.key),
    };
    if (existing) {
      // Keeps resourceVersion: a concurrent writer makes this fail with 409.
      await this.client.replace(Secrets, {
        ...existing,
        type: 'kubernetes.io/tls',
        data: { ...existing.data, ...data },
      });
    } else {
      await this.client.create(Secrets, {
        metadata: {
          name: this.options.secretName,
          namespace: this.options.secretNamespace,
        },
        type: 'kubernetes.io/tls',
        data,
      });
    }
  }

  /** Writes the CA into every configured caBundle that differs. */
  private async publishCaBundle(caPem: string): Promise<void> {
    const caBundle = b64(caPem);
    const targets = [
      ...(this.options.validatingWebhookConfigurations ?? []).map(name => ({
        rt: ValidatingWebhookConfigurations,
        name,
      })),
      ...(this.options.mutatingWebhookConfigurations ?? []).map(name => ({
        rt: MutatingWebhookConfigurations,
        name,
      })),
      ...(this.options.conversionCrds ?? []).map(name => ({
        rt: CustomResourceDefinitions,
        name,
      })),
    ];
    let ok = true;
    for (const { rt, name } of targets) {
      try {
        await this.patchWithRetry(rt, name, caBundle);
      } catch (err) {
        ok = false;
        this.logger.warn(
          'could not publish caBundle; retrying within seconds',
          { kind: rt.kind, name, error: err },
        );
      }
    }
    this.lastCaBundleOk = ok;
  }

  private async patchWithRetry(
    rt: typeof Secrets,
    name: string,
    caBundle: string,
  ): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      const obj = await this.client.get<KubeObject>(rt, { name });
      let ops;
      if (rt === CustomResourceDefinitions) {
        const result = crdConversionCaPatch(obj, caBundle);
        if (result.reason) throw new Error(result.reason);
        ops = result.ops;
      } else {
        ops = webhookConfigurationCaPatch(obj, caBundle);
      }
      if (ops.length === 0) return;
      try {
        await this.client.patch(rt, { name }, ops, 'json');
        this.logger.info('published caBundle', { kind: rt.kind, name });
        return;
      } catch (err) {
        // A failed `test` (the list changed under us) is a 422: read again.
        if (
          attempt < 3 &&
          err instanceof KubeApiError &&
          (err.code === 422 || err.code === 409)
        )
          continue;
        throw err;
      }
    }
  }
}

function firstCa(bundle: CertBundle): string | undefined {
  return splitPems(bundle.caCert)[0];
}

function b64(text: string): string {
  return Buffer.from(text).toString('base64');
}

function bundleFromSecret(secret: TlsSecret): CertBundle | undefined {
  const d = secret.data ?? {};
  const text = (k: string) =>
    d[k] ? Buffer.from(d[k], 'base64').toString('utf8') : '';
  const bundle = {
    caCert: text('ca.crt'),
    caKey: text('ca.key'),
    cert: text('tls.crt'),
    key: text('tls.key'),
  };
  return bundle.caCert && bundle.caKey && bundle.cert && bundle.key
    ? bundle
    : undefined;
}
