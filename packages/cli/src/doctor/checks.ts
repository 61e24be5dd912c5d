/**
 * The doctor's checks: pure functions of what was read from a cluster, so
 * the CLI and the portal's backend judge a cluster the same way.
 */
import type { Check, ClusterState, Expectations, ReadArea } from './types';

/** @public */
export interface CheckOptions {
  /** A heartbeat older than this is stale; default 3 minutes (three of the providers' default 60 s intervals). */
  heartbeatStaleMs?: number;
  /**
   * How far past `renewTime + leaseDurationSeconds` a leader Lease still
   * counts as held (clock skew between the controller and the reader);
   * default 5 s.
   */
  leaseSlackMs?: number;
}

const DEFAULT_HEARTBEAT_STALE_MS = 180_000;
const DEFAULT_LEASE_SLACK_MS = 5_000;
/** The controllers' lease duration, for a record that does not say its own. */
const DEFAULT_LEASE_DURATION_S = 15;

const ok = (id: string, message: string): Check => ({
  id,
  status: 'ok',
  message,
});
const fail = (id: string, message: string, fix: string): Check => ({
  id,
  status: 'fail',
  message,
  fix,
});
const warn = (id: string, message: string, fix: string): Check => ({
  id,
  status: 'warn',
  message,
  fix,
});

/** A part that could not be read: one check saying what it needs, instead of a failure. */
function notChecked(
  state: ClusterState,
  area: ReadArea,
  id: string,
  what: string,
): Check[] {
  const needs = state.notChecked?.[area];
  if (!needs) return [];
  return [
    {
      id,
      status: 'not-checked',
      message: `${what}: not checked: needs ${needs}`,
      fix: `grant ${needs} to the identity that runs the checks`,
    },
  ];
}

/** @public */
export function checkCrds(
  state: ClusterState,
  expected: Expectations,
): Check[] {
  if (state.notChecked?.crds)
    return notChecked(state, 'crds', 'crd/*', "Runway's CRDs");
  return expected.crds.map(({ name, versions }) => {
    const id = `crd/${name}`;
    const crd = state.crds[name];
    if (!crd)
      return fail(
        id,
        `CRD ${name} is not installed`,
        'runway controller install',
      );
    if (!crd.established)
      return fail(
        id,
        `CRD ${name} is not Established`,
        `kubectl describe crd ${name}`,
      );
    const missing = versions.filter(v => !crd.versions.includes(v));
    if (missing.length > 0) {
      return fail(
        id,
        `CRD ${name} does not serve ${missing.join(
          ', ',
        )} (it serves ${crd.versions.join(', ')}): it is older than this CLI`,
        'runway controller upgrade',
      );
    }
    return ok(id, `CRD ${name} serves ${versions.join(', ')}`);
  });
}

/**
 * Whether a controller without a Deployment runs outside the cluster (the
 * local system, a developer's laptop): its leader Lease is held and was
 * renewed within its duration (plus slack), or, for a provider, its
 * registration's heartbeat is fresh. `unknown`: the Leases could not be read.
 *
 * @public
 */
export type OutsideState =
  | { running: true; how: string }
  | { running: false; why?: string }
  | { running: 'unknown'; needs: string };

/** @public */
export function runningOutside(
  state: ClusterState,
  evidence: { lease?: string; heartbeat?: string },
  options: CheckOptions = {},
): OutsideState {
  const now = Date.parse(state.readAt);
  const secondsAgo = (ms: number) => Math.max(0, Math.round((now - ms) / 1000));
  const beat = evidence.heartbeat ? Date.parse(evidence.heartbeat) : NaN;
  const staleMs = options.heartbeatStaleMs ?? DEFAULT_HEARTBEAT_STALE_MS;
  const heartbeatFresh = !Number.isNaN(beat) && now - beat <= staleMs;
  const byHeartbeat = (): OutsideState => ({
    running: true,
    how: `heartbeat ${secondsAgo(beat)} s ago`,
  });
  if (!evidence.lease)
    return heartbeatFresh ? byHeartbeat() : { running: false };
  const needs = state.notChecked?.leases;
  if (needs)
    return heartbeatFresh ? byHeartbeat() : { running: 'unknown', needs };
  const lease = state.leases[evidence.lease];
  const renewed = lease?.renewTime ? Date.parse(lease.renewTime) : NaN;
  let why: string | undefined;
  if (lease && (!lease.holderIdentity || Number.isNaN(renewed))) {
    why = `its leader lease ${evidence.lease} is not held`;
  } else if (lease) {
    const durationS = lease.leaseDurationSeconds ?? DEFAULT_LEASE_DURATION_S;
    const slackMs = options.leaseSlackMs ?? DEFAULT_LEASE_SLACK_MS;
    const by = lease.holderIdentity!;
    if (renewed + durationS * 1000 + slackMs >= now)
      return {
        running: true,
        how: `leader lease renewed ${secondsAgo(renewed)} s ago by ${by}`,
      };
    why = `its leader lease ${evidence.lease} was last renewed ${secondsAgo(
      renewed,
    )} s ago by ${by} (expired after ${durationS} s)`;
  }
  if (heartbeatFresh) return byHeartbeat();
  return { running: false, why };
}

function deploymentCheck(
  state: ClusterState,
  id: string,
  namespace: string,
  name: string,
  title: string,
  installFix: string,
  outside: () => OutsideState,
): Check {
  const d = state.deployments[name];
  if (!d) {
    const notFound = `${title}: Deployment ${namespace}/${name} not found`;
    const o = outside();
    if (o.running === true)
      return ok(id, `${title}: running outside the cluster (${o.how})`);
    if (o.running === 'unknown')
      return {
        id,
        status: 'not-checked',
        message: `${notFound}; whether it runs outside the cluster is not checked: needs ${o.needs}`,
        fix: `grant ${o.needs} to the identity that runs the checks, or ${installFix}`,
      };
    return fail(id, o.why ? `${notFound}, and ${o.why}` : notFound, installFix);
  }
  if (d.replicas === 0) {
    return fail(
      id,
      `${title}: Deployment ${namespace}/${name} is scaled to 0: it is stopped`,
      `kubectl -n ${namespace} scale deployment ${name} --replicas=1`,
    );
  }
  if (!d.ready) {
    return fail(
      id,
      `${title}: ${d.readyReplicas}/${d.replicas} replicas ready`,
      `kubectl -n ${namespace} describe deployment ${name}; kubectl -n ${namespace} logs deployment/${name}`,
    );
  }
  return ok(id, `${title}: ${d.readyReplicas}/${d.replicas} replicas ready`);
}

/** @public */
export function checkControllers(
  state: ClusterState,
  expected: Expectations,
  options: CheckOptions = {},
): Check[] {
  if (state.notChecked?.deployments)
    return notChecked(
      state,
      'deployments',
      'controller/*',
      `controllers in ${expected.namespace}`,
    );
  return expected.controllers.map(c =>
    deploymentCheck(
      state,
      `controller/${c.component}`,
      expected.namespace,
      c.deployment,
      `controller ${c.component}`,
      `runway controller install ${c.component}`,
      () => runningOutside(state, { lease: c.lease }, options),
    ),
  );
}

/** @public */
export function checkWebhooks(
  state: ClusterState,
  expected: Expectations,
  options: CheckOptions = {},
): Check[] {
  if (state.notChecked?.webhooks)
    return notChecked(state, 'webhooks', 'webhook/*', 'webhook configurations');
  // An optional operator that is not installed has no webhooks to check (checkOperators warns).
  const deploymentsUnknown = state.notChecked?.deployments !== undefined;
  const optional = new Set(expected.operators.map(op => op.name));
  const absent = new Set(
    expected.operators
      .filter(
        op =>
          !state.deployments[op.deployment] &&
          runningOutside(state, { lease: op.lease }, options).running !== true,
      )
      .map(op => op.name),
  );
  return expected.webhooks
    .filter(w => {
      const probe = state.webhooks[`${w.kind}/${w.name}`];
      // Without the Deployments, an operator counts as installed when its webhooks are registered.
      if (deploymentsUnknown) return !optional.has(w.component) || !!probe;
      return !absent.has(w.component);
    })
    .map((w): Check => {
      const id = `webhook/${w.name}`;
      const probe = state.webhooks[`${w.kind}/${w.name}`];
      const probeNeeds = state.notChecked?.webhookProbes;
      if (probe && probeNeeds)
        return {
          id,
          status: 'not-checked',
          message: `${w.kind} ${w.name} is registered; whether it answers is not checked: needs ${probeNeeds}`,
          fix: `runway doctor (the CLI probes it with your credentials)`,
        };
      if (!probe)
        return fail(
          id,
          `${w.kind} ${w.name} is not registered: writes are not validated`,
          `runway controller install ${w.component}`,
        );
      if (!probe.answered) {
        return fail(
          id,
          `${w.kind} ${w.name} does not answer (${probe.message}): writes of its kinds are refused`,
          `check the ${w.component} controller (runway doctor controller/${
            w.component
          }); to unblock writes at once: kubectl delete ${w.kind.toLowerCase()} ${
            w.name
          }`,
        );
      }
      return ok(id, `${w.kind} ${w.name} answers`);
    });
}

/** @public */
export function checkProviders(
  state: ClusterState,
  expected: Expectations,
  options: CheckOptions = {},
): Check[] {
  const staleMs = options.heartbeatStaleMs ?? DEFAULT_HEARTBEAT_STALE_MS;
  const now = Date.parse(state.readAt);
  if (state.notChecked?.providers)
    return notChecked(
      state,
      'providers',
      'provider/*',
      'provider registrations',
    );
  const deploymentsKnown = !state.notChecked?.deployments;
  const checks: Check[] = [];
  const names = new Set([
    ...expected.providers.map(p => p.name),
    ...state.providers.map(p => p.name),
  ]);
  for (const name of names) {
    const spec = expected.providers.find(p => p.name === name);
    const registered = state.providers.find(p => p.name === name);
    const deployment = spec ? state.deployments[spec.deployment] : undefined;
    const id = `provider/${name}`;
    // A provider run outside the cluster (the local system, a developer's shell) has no Deployment to read logs from.
    const inCluster = deployment !== undefined || !deploymentsKnown;
    const logsFix = inCluster
      ? `kubectl -n ${expected.namespace} logs deployment/${
          spec?.deployment ?? name
        }`
      : `read the log of the process that runs provider ${name} outside the cluster (there is no Deployment ${
          expected.namespace
        }/${spec?.deployment ?? name}), or runway provider install ${name}`;
    const outside = () =>
      runningOutside(
        state,
        { lease: spec?.lease, heartbeat: registered?.lastHeartbeat },
        options,
      );
    if (spec && !deployment && !registered && outside().running !== true) {
      checks.push(
        warn(
          id,
          `provider ${name} is not installed`,
          `runway provider install ${name}`,
        ),
      );
      continue;
    }
    if (spec && deploymentsKnown)
      checks.push(
        deploymentCheck(
          state,
          `${id}/controller`,
          expected.namespace,
          spec.deployment,
          `provider ${name}`,
          `runway provider install ${name}`,
          outside,
        ),
      );
    if (!registered) {
      checks.push(
        fail(
          `${id}/registration`,
          `provider ${name} has not registered (no InferenceProviderConfig ${name})`,
          logsFix,
        ),
      );
      continue;
    }
    checks.push(
      registered.ready
        ? ok(`${id}/ready`, `provider ${name} reports ready`)
        : fail(
            `${id}/ready`,
            `provider ${name} reports not ready${
              registered.message ? `: ${registered.message}` : ''
            }`,
            `kubectl get inferenceproviderconfig ${name} -o yaml`,
          ),
    );
    const beat = registered.lastHeartbeat
      ? Date.parse(registered.lastHeartbeat)
      : NaN;
    if (Number.isNaN(beat)) {
      checks.push(
        fail(
          `${id}/heartbeat`,
          `provider ${name} has never sent a heartbeat`,
          logsFix,
        ),
      );
    } else if (now - beat > staleMs) {
      checks.push(
        fail(
          `${id}/heartbeat`,
          `provider ${name}'s last heartbeat is ${Math.round(
            (now - beat) / 1000,
          )}s old (stale after ${
            staleMs / 1000
          }s): its controller is not running`,
          spec && inCluster
            ? `kubectl -n ${expected.namespace} rollout restart deployment/${spec.deployment}, or runway provider install ${name}`
            : `restart the ${name} provider's controller where it runs (no Deployment ${
                expected.namespace
              }/${
                spec?.deployment ?? name
              } in the cluster), or runway provider install ${name}`,
        ),
      );
    } else {
      checks.push(
        ok(
          `${id}/heartbeat`,
          `provider ${name} heartbeat ${Math.round((now - beat) / 1000)}s ago`,
        ),
      );
    }
    const upstream = state.notChecked?.crds ? [] : spec?.upstreamCrds ?? [];
    const missing = upstream.filter(crd => !state.crds[crd]?.established);
    if (missing.length > 0) {
      checks.push(
        fail(
          `${id}/upstream`,
          `provider ${name}: upstream CRD ${missing.join(
            ', ',
          )} not installed, so its deployments stay Pending`,
          `install the ${name} operator (it brings ${missing.join(', ')})`,
        ),
      );
    } else if (upstream.length > 0 || registered.upstreamCRDVersion) {
      checks.push(
        ok(
          `${id}/upstream`,
          `provider ${name}: upstream ${
            registered.upstreamCRDVersion ?? upstream.join(', ')
          } installed`,
        ),
      );
    }
  }
  return checks;
}

/** @public */
export function checkGateway(state: ClusterState): Check[] {
  const id = 'gateway';
  if (state.notChecked?.gateway)
    return notChecked(state, 'gateway', id, 'the Gateway');
  if (!state.gateway.crdInstalled) {
    return [
      warn(
        id,
        'Gateway API CRDs not installed: deployments get no gateway route (GatewayReady stays False)',
        'install the Gateway API and Inference Extension CRDs and a Gateway implementation',
      ),
    ];
  }
  if (state.gateway.gateways === 0)
    return [
      warn(
        id,
        'no Gateway in the cluster: deployments get no gateway route',
        'create a Gateway labelled airunway.ai/inference-gateway=true',
      ),
    ];
  if (state.gateway.labelled === 0 && state.gateway.gateways > 1) {
    return [
      warn(
        id,
        `${state.gateway.gateways} Gateways and none labelled airunway.ai/inference-gateway=true: the core cannot choose`,
        'label one Gateway airunway.ai/inference-gateway=true',
      ),
    ];
  }
  return [
    ok(
      id,
      `Gateway found (${state.gateway.gateways}, ${state.gateway.labelled} labelled for inference)`,
    ),
  ];
}

/** @public */
export function checkOperators(
  state: ClusterState,
  expected: Expectations,
  options: CheckOptions = {},
): Check[] {
  if (state.notChecked?.deployments)
    return notChecked(
      state,
      'deployments',
      'operator/*',
      'the models and stacks operators',
    );
  return expected.operators.map(op => {
    const outside = runningOutside(state, { lease: op.lease }, options);
    return state.deployments[op.deployment] || outside.running === true
      ? deploymentCheck(
          state,
          `operator/${op.name}`,
          expected.namespace,
          op.deployment,
          op.title,
          `runway controller install ${op.name}`,
          () => outside,
        )
      : warn(
          `operator/${op.name}`,
          `${op.title} not installed (no Deployment ${expected.namespace}/${op.deployment})`,
          `install it: runway controller install ${op.name}`,
        );
  });
}

/** Every check, in the order printed. @public */
export function runChecks(
  state: ClusterState,
  expected: Expectations,
  options: CheckOptions = {},
): Check[] {
  return [
    ...checkCrds(state, expected),
    ...checkControllers(state, expected, options),
    ...checkWebhooks(state, expected, options),
    ...checkProviders(state, expected, options),
    ...checkGateway(state),
    ...checkOperators(state, expected, options),
  ];
}

/** One line per check (the CLI's text output). @public */
export function formatChecks(checks: Check[]): string[] {
  const mark = {
    ok: 'ok  ',
    warn: 'WARN',
    fail: 'FAIL',
    'not-checked': 'SKIP',
  } as const;
  return checks.map(
    c =>
      `${mark[c.status]} ${c.id}: ${c.message}${
        c.fix ? ` (fix: ${c.fix})` : ''
      }`,
  );
}
