/**
 * The API server's own counters, for the end-to-end benchmark (issue 21):
 * requests by verb and resource, and the admission webhooks' latency
 * histogram, read from `/metrics` before and after a phase and compared.
 */
import https from 'node:https';
import type { KubeClient } from '@runway-portal/controller-runtime';

/** One sample of the Prometheus text format: metric name, labels, value. */
export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the metrics named in `names` from the Prometheus text format; other lines are skipped. */
export function parseMetrics(
  text: string,
  names: ReadonlySet<string>,
): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line === '') continue;
    const m = SAMPLE_LINE.exec(line);
    if (!m || !names.has(m[1])) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(LABEL))
      labels[l[1]] = l[2].replace(/\\(.)/g, '$1');
    const value = Number(m[4]);
    if (Number.isFinite(value)) samples.push({ name: m[1], labels, value });
  }
  return samples;
}

export const REQUEST_TOTAL = 'apiserver_request_total';
export const WEBHOOK_DURATION =
  'apiserver_admission_webhook_admission_duration_seconds';
export const BENCH_METRICS: ReadonlySet<string> = new Set([
  REQUEST_TOTAL,
  `${WEBHOOK_DURATION}_bucket`,
  `${WEBHOOK_DURATION}_count`,
]);

/** Verbs that write: every one of them goes through admission and etcd. */
export const MUTATING_VERBS: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'APPLY',
  'DELETE',
  'DELETECOLLECTION',
]);

/** Requests by `VERB resource[/subresource]`, summed over codes and scopes. */
export function requestsByVerbAndResource(
  samples: MetricSample[],
): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== REQUEST_TOTAL) continue;
    const { verb, resource, subresource } = s.labels;
    if (!verb || !resource) continue;
    const key = `${verb} ${resource}${subresource ? `/${subresource}` : ''}`;
    out.set(key, (out.get(key) ?? 0) + s.value);
  }
  return out;
}

/** `after - before` per key, keeping only keys that grew. */
export function counterDelta(
  before: Map<string, number>,
  after: Map<string, number>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, value] of after) {
    const d = value - (before.get(key) ?? 0);
    if (d > 0) out.set(key, d);
  }
  return out;
}

/** Sums a delta's mutating requests, and separately its Event writes (created, bumped). */
export function writeSummary(delta: Map<string, number>): {
  mutating: number;
  eventCreates: number;
  eventPatches: number;
} {
  let mutating = 0;
  let eventCreates = 0;
  let eventPatches = 0;
  for (const [key, n] of delta) {
    const [verb, resource] = key.split(' ');
    if (!MUTATING_VERBS.has(verb)) continue;
    mutating += n;
    if (resource === 'events' && verb === 'POST') eventCreates += n;
    if (resource === 'events' && verb !== 'POST') eventPatches += n;
  }
  return { mutating, eventCreates, eventPatches };
}

/** A cumulative histogram: upper bound (`le`, +Inf last) → count at or below it. */
export type Histogram = Map<number, number>;

/** The webhook admission latency histogram summed over webhooks, optionally for one operation (CREATE, UPDATE). */
export function webhookHistogram(
  samples: MetricSample[],
  operation?: string,
): Histogram {
  return histogramOf(
    samples,
    WEBHOOK_DURATION,
    labels => !operation || labels.operation === operation,
  );
}

/** The buckets of histogram `name` (`<name>_bucket` samples), summed over the series `keep` accepts. */
export function histogramOf(
  samples: MetricSample[],
  name: string,
  keep: (labels: Record<string, string>) => boolean = () => true,
): Histogram {
  const out: Histogram = new Map();
  for (const s of samples) {
    if (s.name !== `${name}_bucket` || !keep(s.labels)) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    out.set(le, (out.get(le) ?? 0) + s.value);
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]));
}

/** Admission calls per operation (CREATE, UPDATE, ...), summed over webhooks. */
export function webhookCalls(samples: MetricSample[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const s of samples) {
    if (s.name !== `${WEBHOOK_DURATION}_count`) continue;
    const op = s.labels.operation ?? '';
    out.set(op, (out.get(op) ?? 0) + s.value);
  }
  return out;
}

/** Bucket-wise `after - before`. */
export function histogramDelta(before: Histogram, after: Histogram): Histogram {
  return new Map(
    [...after].map(([le, n]) => [le, n - (before.get(le) ?? 0)] as const),
  );
}

/**
 * The q-quantile of a cumulative histogram, interpolated linearly within
 * its bucket as Prometheus's `histogram_quantile` does (the first bucket
 * from 0). Undefined without observations; the highest finite bound when
 * the quantile falls in +Inf.
 */
export function histogramQuantile(
  q: number,
  histogram: Histogram,
): number | undefined {
  const buckets = [...histogram].sort((a, b) => a[0] - b[0]);
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total <= 0) return undefined;
  const rank = q * total;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return lowerBound;
      const inBucket = count - lowerCount;
      return inBucket <= 0
        ? le
        : lowerBound + (le - lowerBound) * ((rank - lowerCount) / inBucket);
    }
    lowerBound = le;
    lowerCount = count;
  }
  return lowerBound;
}

/**
 * The share of the observations at most `le` (a bucket bound), 0 to 1;
 * undefined without observations or without that bucket. Exact, where a
 * quantile between two coarse buckets is interpolated.
 */
export function shareWithin(
  le: number,
  histogram: Histogram,
): number | undefined {
  const total = histogram.get(Infinity) ?? 0;
  const within = histogram.get(le);
  return total > 0 && within !== undefined ? within / total : undefined;
}

/** GET `path` from the client's API server as bytes (KubeClient.request only speaks JSON), at most `timeoutMs`. */
export async function getRaw(
  client: KubeClient,
  path: string,
  timeoutMs = 30_000,
): Promise<Buffer> {
  const options: https.RequestOptions = {};
  await client.kubeConfig.applyToHTTPSOptions(options);
  return new Promise((resolve, reject) => {
    const req = https.get(`${client.server}${path}`, options, res => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if ((res.statusCode ?? 0) >= 400)
          reject(
            new Error(
              `GET ${path} answered ${res.statusCode}: ${body
                .toString('utf8')
                .slice(0, 200)}`,
            ),
          );
        else resolve(body);
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () =>
      req.destroy(
        new Error(`GET ${path}: no answer within ${timeoutMs / 1000} s`),
      ),
    );
    req.on('error', reject);
  });
}

/** GET /metrics from the client's API server (the Prometheus text format). */
export async function scrapeMetrics(client: KubeClient): Promise<string> {
  return (await getRaw(client, '/metrics')).toString('utf8');
}

/**
 * A Go CPU profile of the API server over `seconds` (`/debug/pprof/profile`;
 * the server must run with `--profiling=true`), for `go tool pprof`.
 */
export async function apiServerCpuProfile(
  client: KubeClient,
  seconds: number,
): Promise<Buffer> {
  return getRaw(
    client,
    `/debug/pprof/profile?seconds=${seconds}`,
    (seconds + 30) * 1000,
  );
}

/** The API server's counters now: requests by verb and resource, and the webhook samples. */
export async function snapshot(client: KubeClient): Promise<MetricSample[]> {
  return parseMetrics(await scrapeMetrics(client), BENCH_METRICS);
}
