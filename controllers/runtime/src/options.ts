/**
 * Flags and environment variables of a controller process, from one table
 * of specs: a flag (`--name=value` or `--name value`) beats its environment
 * variable, which beats the default; an empty value counts as not set.
 * Pure: returns the typed settings or every problem at once, each naming
 * the flag, its variable and how to fix the value.
 */
import { type LogLevel, parseLevel } from './observability/logger';

/** Turns a raw value into a setting; throws an Error whose message starts with `label`. @public */
export type OptionParser<T> = (raw: string, label: string) => T;

/** @public */
export interface OptionSpec<T> {
  /** Without the dashes: `metrics-port` is given as `--metrics-port`. */
  flag: string;
  env: string;
  help: string;
  /** Raw value used when neither the flag nor the variable is set; shown in the usage. */
  default?: string;
  parse: OptionParser<T>;
}

/** @public */
export type OptionSpecs = Record<string, OptionSpec<unknown>>;

/** The settings `specs` describe: a spec without a default may be undefined. @public */
export type ParsedOptions<S extends OptionSpecs> = {
  -readonly [K in keyof S]: S[K] extends { default: string }
    ? ReturnType<S[K]['parse']>
    : ReturnType<S[K]['parse']> | undefined;
};

/** @public */
export type OptionsResult<T> =
  | { ok: true; options: T }
  | { ok: false; errors: string[] };

/** How messages name a setting: `--metrics-port (METRICS_PORT)`. @public */
export function optionLabel(
  spec: Pick<OptionSpec<unknown>, 'flag' | 'env'>,
): string {
  return `--${spec.flag} (${spec.env})`;
}

/** @public */
export function parseProcessOptions<S extends OptionSpecs>(
  specs: S,
  argv: readonly string[],
  env: Record<string, string | undefined>,
): OptionsResult<ParsedOptions<S>> {
  const errors: string[] = [];
  const byFlag = new Map(
    Object.entries(specs).map(([key, spec]) => [spec.flag, key]),
  );
  const fromFlags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([^=]+)(?:=(.*))?$/s.exec(argv[i]);
    if (!match) {
      errors.push(
        `unexpected argument "${argv[i]}": settings are flags, written --name=value or --name value`,
      );
      continue;
    }
    const key = byFlag.get(match[1]);
    if (key === undefined) {
      errors.push(
        `unknown flag "--${match[1]}": run with --help to list the flags`,
      );
      continue;
    }
    // A following flag is not a value: `--kubeconfig --log-level debug` lacks one.
    const value =
      match[2] ?? (argv[i + 1]?.startsWith('--') ? undefined : argv[++i]);
    if (value === undefined) {
      errors.push(
        `--${match[1]} needs a value: write --${match[1]}=<value> or --${match[1]} <value>`,
      );
    } else {
      fromFlags.set(key, value);
    }
  }

  const options: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const raw = [fromFlags.get(key), env[spec.env], spec.default].find(
      v => v !== undefined && v !== '',
    );
    if (raw === undefined) continue;
    try {
      options[key] = spec.parse(raw, optionLabel(spec));
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return errors.length
    ? { ok: false, errors }
    : { ok: true, options: options as ParsedOptions<S> };
}

/** `--help` or `-h` anywhere asks for the usage instead of a run. @public */
export function helpRequested(argv: readonly string[]): boolean {
  return argv.includes('--help') || argv.includes('-h');
}

/** Every flag with its variable, help and default. @public */
export function usage(program: string, specs: OptionSpecs): string {
  const lines = Object.values(specs).map(
    s =>
      `  --${s.flag} <value>  (env ${s.env})  ${s.help}${
        s.default === undefined ? '' : `, default ${s.default}`
      }`,
  );
  return `usage: ${program} [flags]\n${lines.join('\n')}`;
}

/** What a process prints for bad settings: one line per problem, then the usage. @public */
export function optionErrorsText(
  program: string,
  specs: OptionSpecs,
  errors: readonly string[],
): string {
  return `${errors.map(e => `${program}: ${e}`).join('\n')}\n${usage(
    program,
    specs,
  )}\n`;
}

const invalid = (label: string, raw: string, fix: string) =>
  new Error(`${label} "${raw}" is not valid: ${fix}`);

/** `90s`, `5m`, `1h`, `250ms` or a bare number of seconds, in milliseconds. @public */
export function parseDuration(raw: string, label: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(raw.trim());
  if (!match)
    throw new Error(
      `${label} "${raw}" is not a duration: write e.g. 30s, 5m or 1h`,
    );
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[
    (match[2] ?? 's') as 'ms' | 's' | 'm' | 'h'
  ];
  return Math.round(Number(match[1]) * factor);
}

function wholeNumber(min: number, max?: number): OptionParser<number> {
  return (raw, label) => {
    const n = Number(raw.trim());
    if (
      !/^\d+$/.test(raw.trim()) ||
      n < min ||
      (max !== undefined && n > max)
    ) {
      const range =
        max === undefined ? `of at least ${min}` : `from ${min} to ${max}`;
      throw invalid(label, raw, `use a whole number ${range}`);
    }
    return n;
  };
}

function oneOf<const V extends string>(values: readonly V[]): OptionParser<V> {
  const list = `${values.slice(0, -1).join(', ')} or ${
    values[values.length - 1]
  }`;
  return (raw, label) => {
    if (!(values as readonly string[]).includes(raw))
      throw invalid(label, raw, `use ${list}`);
    return raw as V;
  };
}

// DNS-1123: a subdomain for object names, a label for namespaces.
const SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Ready parsers for the usual kinds of setting. @public */
export const optionParsers = {
  string: ((raw: string) => raw) as OptionParser<string>,
  /** 0-65535; 0 lets the system pick a free port. */
  port: wholeNumber(0, 65535),
  /** A whole number from `min`, up to `max` when given. */
  wholeNumber,
  /** A duration longer than 0, in milliseconds. */
  duration: ((raw, label) => {
    const ms = parseDuration(raw, label);
    if (ms <= 0)
      throw invalid(label, raw, 'use a duration longer than 0, e.g. 30s');
    return ms;
  }) as OptionParser<number>,
  oneOf,
  boolean: ((raw, label) => {
    if (raw !== 'true' && raw !== 'false')
      throw invalid(label, raw, 'use true or false');
    return raw === 'true';
  }) as OptionParser<boolean>,
  /** A Kubernetes object name (DNS-1123 subdomain). */
  k8sName: ((raw, label) => {
    if (raw.length > 253 || !SUBDOMAIN.test(raw)) {
      throw invalid(
        label,
        raw,
        "use a Kubernetes name: lowercase letters, digits, '-' and '.', starting and ending with a letter or digit",
      );
    }
    return raw;
  }) as OptionParser<string>,
  /** A namespace name (DNS-1123 label). */
  namespaceName: ((raw, label) => {
    if (raw.length > 63 || !LABEL.test(raw)) {
      throw invalid(
        label,
        raw,
        "use a namespace name: up to 63 lowercase letters, digits and '-', starting and ending with a letter or digit",
      );
    }
    return raw;
  }) as OptionParser<string>,
  logLevel: ((raw, label) => {
    const level = parseLevel(raw);
    if (!level) throw invalid(label, raw, 'use debug, info, warn or error');
    return level;
  }) as OptionParser<LogLevel>,
};

/** The flags of every process that runs a Manager: its cluster, its two ports, its log level. @public */
export const MANAGER_OPTIONS = {
  kubeconfig: {
    flag: 'kubeconfig',
    env: 'KUBECONFIG',
    help: 'path to a kubeconfig file (unset: in-cluster, else ~/.kube/config)',
    parse: optionParsers.string,
  },
  metricsPort: {
    flag: 'metrics-port',
    env: 'METRICS_PORT',
    help: 'port of /metrics (0 picks a free one)',
    default: '8080',
    parse: optionParsers.port,
  },
  healthPort: {
    flag: 'health-port',
    env: 'HEALTH_PORT',
    help: 'port of /healthz and /readyz (0 picks a free one)',
    default: '8081',
    parse: optionParsers.port,
  },
  logLevel: {
    flag: 'log-level',
    env: 'LOG_LEVEL',
    help: 'debug, info, warn or error',
    default: 'info',
    parse: optionParsers.logLevel,
  },
} satisfies OptionSpecs;

/**
 * The flags of a Manager process that serves webhooks and may run with
 * leader election (the core, the model and the stack operators). Their
 * webhook Service is `<program>-webhook`, the certificate's default host in
 * service mode.
 *
 * @public
 */
export function webhookManagerOptions(
  program: string,
  { maxConcurrentReconciles = '16' }: { maxConcurrentReconciles?: string } = {},
) {
  return {
    ...MANAGER_OPTIONS,
    /** Namespace of the webhook certificate Secret and the leader Lease. */
    namespace: {
      flag: 'namespace',
      env: 'POD_NAMESPACE',
      help: 'namespace of the certificate Secret and leader Lease',
      default: 'airunway-system',
      parse: optionParsers.namespaceName,
    },
    webhookMode: {
      flag: 'webhook-mode',
      env: 'WEBHOOK_MODE',
      help: 'service (in a cluster), url (local process: registers the webhooks with https://<webhook-host>:<port>) or off',
      default: 'service',
      parse: optionParsers.oneOf(['service', 'url', 'off']),
    },
    webhookPort: {
      flag: 'webhook-port',
      env: 'WEBHOOK_PORT',
      help: 'port of the webhook server',
      default: '9443',
      parse: optionParsers.port,
    },
    /** `service`: the Service DNS name the certificate covers; `url`: the host the API server dials. Defaulted per mode by `parseWebhookManagerOptions`. */
    webhookHost: {
      flag: 'webhook-host',
      env: 'WEBHOOK_HOST',
      help: `Service DNS name (service mode, default ${program}-webhook.<namespace>.svc) or IP/host (url mode, default 127.0.0.1)`,
      parse: optionParsers.string,
    },
    leaderElect: {
      flag: 'leader-elect',
      env: 'LEADER_ELECT',
      help: 'true to run with leader election',
      default: 'false',
      parse: optionParsers.boolean,
    },
    maxConcurrentReconciles: {
      flag: 'max-concurrent-reconciles',
      env: 'MAX_CONCURRENT_RECONCILES',
      help: 'parallel reconciles',
      default: maxConcurrentReconciles,
      parse: optionParsers.wholeNumber(1),
    },
  } satisfies OptionSpecs;
}

/** @public */
export type WebhookManagerSpecs = ReturnType<typeof webhookManagerOptions>;

/** Settings with `webhookHost` always set (defaulted per webhook mode). @public */
export type WithWebhookHost<O> = Omit<O, 'webhookHost'> & {
  webhookHost: string;
};

/** The settings every webhook Manager process has after its parse. @public */
export type WebhookManagerOptions = WithWebhookHost<
  ParsedOptions<WebhookManagerSpecs>
>;

/**
 * A webhook Manager process's parse: the flags of `specs`, then the checks
 * across them, the shared one (url mode needs a fixed port) and the
 * process's own `finish`, which may also refine the settings. Every problem
 * is returned at once.
 *
 * @public
 */
export function parseWebhookManagerOptions<
  S extends WebhookManagerSpecs,
  T = WithWebhookHost<ParsedOptions<S>>,
>(
  program: string,
  specs: S,
  argv: readonly string[],
  env: Record<string, string | undefined>,
  finish: (
    options: WithWebhookHost<ParsedOptions<S>>,
  ) => OptionsResult<T> = options => ({ ok: true, options: options as T }),
): OptionsResult<T> {
  const parsed = parseProcessOptions(specs, argv, env);
  if (!parsed.ok) return parsed;
  // Generic S hides the shared keys' types; they are WebhookManagerSpecs' by the constraint.
  const o = parsed.options as ParsedOptions<S> &
    ParsedOptions<WebhookManagerSpecs>;
  const errors: string[] = [];
  if (o.webhookMode === 'url' && o.webhookPort === 0) {
    errors.push(
      `${optionLabel(
        specs.webhookPort,
      )} must be a fixed port in url mode: the API server is told https://<webhook-host>:<port>; set a port other than 0`,
    );
  }
  const defaultHost =
    o.webhookMode === 'url'
      ? '127.0.0.1'
      : `${program}-webhook.${o.namespace}.svc`;
  const finished = finish({
    ...o,
    webhookHost: o.webhookHost ?? defaultHost,
  });
  if (!finished.ok) errors.push(...finished.errors);
  return errors.length ? { ok: false, errors } : finished;
}

/** The settings of a webhook Manager process whose own flags are `Own`, `webhookHost` set. @public */
export type WebhookProcessSettings<Own extends OptionSpecs> = WithWebhookHost<
  ParsedOptions<WebhookManagerSpecs & Own>
>;

/**
 * A webhook Manager process's flags and their parse in one: the shared
 * flags (`webhookManagerOptions`), then its `own`; the parse checks the
 * shared ones across flags, then runs the process's `finish`. The result
 * is a `ControllerProcess` but for its `run`.
 *
 * @public
 */
export function webhookProcessOptions<
  Own extends OptionSpecs,
  T = WebhookProcessSettings<Own>,
>(
  program: string,
  own: Own,
  settings: {
    maxConcurrentReconciles?: string;
    finish?: (options: WebhookProcessSettings<Own>) => OptionsResult<T>;
  } = {},
) {
  const specs = { ...webhookManagerOptions(program, settings), ...own };
  return {
    program,
    specs,
    parse: (
      argv: readonly string[],
      env: Record<string, string | undefined>,
    ): OptionsResult<T> =>
      parseWebhookManagerOptions(program, specs, argv, env, settings.finish),
  };
}

/** The settings a process's `parse` returns when every flag is valid. @public */
export type SettingsOf<
  P extends {
    parse(...args: never[]): OptionsResult<unknown>;
  },
> = Extract<ReturnType<P['parse']>, { ok: true }>['options'];
