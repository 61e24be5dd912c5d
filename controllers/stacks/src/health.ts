/**
 * The server's health, as the released upstream operator reports it in the
 * v1alpha1 `HealthCheck` condition: a real `GET /v1/health` to the server,
 * which answers `{"status":"OK"}` when healthy. The operator asks each Ready
 * pod that runs the current config directly at its pod IP (what works from
 * inside the cluster and from a process outside it; a Service's cluster IP
 * and DNS name work only inside). Picking the pods and judging the answers
 * are pure; `probePods` is the only part that talks to the network.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeObject } from '@runway-portal/controller-runtime';
import {
  CONFIG_HASH_ANNOTATION,
  HEALTH_PATH,
  portOf,
  selectorLabels,
  type Stack,
} from './objects';

/** Pods asked per reconcile, at most (a stack with many replicas is judged by a sample). */
export const MAX_PROBED_PODS = 5;
export const PROBE_TIMEOUT_MS = 2000;

export interface ProbeTarget {
  pod: string;
  url: string;
}

/** One pod's answer: `reached` false when nothing answered (connection refused, timeout). */
export interface PodAnswer {
  pod: string;
  reached: boolean;
  ok: boolean;
  detail: string;
}

/** What the probe found: every probed pod healthy, one answering not OK, or none reachable. */
export type HealthResult =
  | { state: 'ok'; pods: number }
  | { state: 'failed'; message: string }
  | { state: 'unreachable'; message: string };

const isReady = (pod: any) =>
  pod?.status?.phase === 'Running' &&
  (pod.status.conditions ?? []).some(
    (c: any) => c.type === 'Ready' && c.status === 'True',
  );

/** The stack's Ready pods that run the config `hash`, with their health URL, by name. Pure. */
export function probeTargets(
  stack: Stack,
  pods: readonly KubeObject[],
  hash: string,
): ProbeTarget[] {
  const selector = Object.entries(selectorLabels(stack));
  const scheme = stack.spec.networking?.tls?.enabled ? 'https' : 'http';
  const port = portOf(stack);
  return pods
    .filter(
      p =>
        p.metadata?.namespace === stack.metadata?.namespace &&
        !p.metadata?.deletionTimestamp &&
        selector.every(([k, v]) => p.metadata?.labels?.[k] === v) &&
        p.metadata?.annotations?.[CONFIG_HASH_ANNOTATION] === hash &&
        isReady(p) &&
        typeof (p as any).status?.podIP === 'string',
    )
    .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!))
    .slice(0, MAX_PROBED_PODS)
    .map(p => {
      const ip: string = (p as any).status.podIP;
      const host = ip.includes(':') ? `[${ip}]` : ip;
      return {
        pod: p.metadata!.name!,
        url: `${scheme}://${host}:${port}${HEALTH_PATH}`,
      };
    });
}

/** Judges one answer: healthy only as HTTP 200 with `{"status":"OK"}` (llama-stack's HealthInfo). Pure. */
export function judgeAnswer(
  pod: string,
  statusCode: number,
  body: string,
): PodAnswer {
  let status: unknown;
  try {
    status = JSON.parse(body)?.status;
  } catch {
    status = undefined;
  }
  const shown = body.length > 200 ? `${body.slice(0, 200)}…` : body;
  const ok = statusCode === 200 && status === 'OK';
  return {
    pod,
    reached: true,
    ok,
    detail: ok
      ? 'OK'
      : `pod ${pod} answered HTTP ${statusCode} ${
          shown.trim() || '(empty body)'
        }`,
  };
}

/** The probe's result from the pods' answers; undefined when no pod was probed. Pure. */
export function healthOf(
  answers: readonly PodAnswer[],
): HealthResult | undefined {
  if (answers.length === 0) return undefined;
  const bad = answers.find(a => a.reached && !a.ok);
  if (bad) return { state: 'failed', message: bad.detail };
  const unreached = answers.find(a => !a.reached);
  if (unreached) return { state: 'unreachable', message: unreached.detail };
  return { state: 'ok', pods: answers.length };
}

/**
 * A failed request's cause as the condition shows it. An HTTPS probe of a server that does not
 * speak TLS fails in OpenSSL's words (`EPROTO …:wrong version number:…`): say what it means. Pure.
 */
export function probeErrorText(
  err: Error & { code?: string },
  url: string,
): string {
  const notTls =
    url.startsWith('https:') &&
    (err.code === 'EPROTO' ||
      /wrong version number|packet length too long|unknown protocol/.test(
        err.message,
      ));
  return notTls
    ? 'TLS handshake failed: the server does not answer HTTPS on this port (networking.tls.enabled: it must serve TLS with the certificate of networking.tls.secretName)'
    : err.message;
}

function getOnce(target: ProbeTarget, timeoutMs: number): Promise<PodAnswer> {
  return new Promise(resolve => {
    const lib = target.url.startsWith('https:') ? https : http;
    // The server's certificate is the user's (a TLS Secret for its Service name); only liveness
    // is read here and nothing is sent, so it is not verified.
    const req = lib.get(
      target.url,
      { timeout: timeoutMs, rejectUnauthorized: false, agent: false },
      res => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', chunk => {
          if (body.length < 4096) body += chunk;
        });
        res.on('end', () =>
          resolve(judgeAnswer(target.pod, res.statusCode ?? 0, body)),
        );
        res.on('error', err =>
          resolve({
            pod: target.pod,
            reached: false,
            ok: false,
            detail: `pod ${target.pod}: ${err.message}`,
          }),
        );
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`no answer within ${timeoutMs} ms`)),
    );
    req.on('error', err =>
      resolve({
        pod: target.pod,
        reached: false,
        ok: false,
        detail: `pod ${target.pod} at ${target.url}: ${probeErrorText(
          err,
          target.url,
        )}`,
      }),
    );
  });
}

/** Asks every target at once; never rejects. */
export async function probePods(
  targets: readonly ProbeTarget[],
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<PodAnswer[]> {
  return Promise.all(targets.map(t => getOnce(t, timeoutMs)));
}
