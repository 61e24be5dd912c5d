/**
 * A simulator of the llama-stack server, only as far as the stack
 * operator's status needs: `GET /v1/health`, answered as the real server
 * does (`200 {"status":"OK"}`), for every pod of a stack. kwok makes the
 * stack's pods Running and Ready with an address nothing listens on; this
 * simulator then gives each Ready pod an address of its own on this
 * machine's loopback network (127.a.b.c), listens there on the pod's
 * `http` port (HTTPS with a certificate of its own when the pod's readiness
 * probe is HTTPS), and reports that address as the pod's IP, as a CNI
 * would. The operator, in the same process or another on this machine,
 * reaches the pod at its IP like in a cluster. kwok leaves a pod's IP alone
 * once set, and deletes the pod itself; the server goes with the pod.
 *
 * A bad server on purpose: the container env `LLAMA_STACK_SIMULATED_HEALTH`
 * (through the stack's `workload.overrides.env`) is the `status` it answers
 * (`Error`: `200 {"status":"Error"}`), or an HTTP status code (`503`:
 * `503 {"status":"Error"}`). A server speaking the wrong scheme: the container env
 * `LLAMA_STACK_SIMULATED_SCHEME` (`http` or `https`) replaces the scheme the
 * readiness probe implies (`http` on a TLS stack: a server that never turned
 * TLS on).
 */
import http from 'node:http';
import https from 'node:https';
import {
  generateCA,
  generateServingCert,
  isNotFound,
  type KubeClient,
  type KubeObject,
  Manager,
  Pods,
  silentLogger,
} from '@runway-portal/controller-runtime';

export const LLAMA_STACK_SIMULATOR = 'llama-stack';
/** The pods it plays the server of: llama-stack's own label, as the operators set it. */
export const LLAMA_STACK_POD_SELECTOR = 'app.kubernetes.io/name=llama-stack';
/** Container env that makes the simulated server answer something other than OK. */
export const SIMULATED_HEALTH_ENV = 'LLAMA_STACK_SIMULATED_HEALTH';
/** Container env (`http` | `https`) that makes the simulated server speak that scheme whatever the probe says. */
export const SIMULATED_SCHEME_ENV = 'LLAMA_STACK_SIMULATED_SCHEME';
export const LLAMA_STACK_HEALTH_PATH = '/v1/health';
const DEFAULT_PORT = 8321;

/** The answer of one pod's server to GET /v1/health, from its container's env. Pure. */
export function simulatedHealth(pod: KubeObject): {
  code: number;
  body: string;
} {
  const env: Array<{ name?: string; value?: string }> =
    (pod as any).spec?.containers?.[0]?.env ?? [];
  const wanted = env.find(e => e.name === SIMULATED_HEALTH_ENV)?.value;
  if (!wanted || wanted === 'OK')
    return { code: 200, body: JSON.stringify({ status: 'OK' }) };
  if (/^[1-5]\d\d$/.test(wanted))
    return { code: Number(wanted), body: JSON.stringify({ status: 'Error' }) };
  return { code: 200, body: JSON.stringify({ status: wanted }) };
}

/**
 * The server's port and scheme as the pod declares them: its `http` port, its readiness probe's
 * scheme, unless the container env `LLAMA_STACK_SIMULATED_SCHEME` says otherwise. Pure.
 */
export function serverEndpoint(pod: KubeObject): {
  port: number;
  https: boolean;
} {
  const container = (pod as any).spec?.containers?.[0] ?? {};
  const ports: Array<{ name?: string; containerPort?: number }> =
    container.ports ?? [];
  const env: Array<{ name?: string; value?: string }> = container.env ?? [];
  const port =
    ports.find(p => p.name === 'http')?.containerPort ??
    ports[0]?.containerPort ??
    DEFAULT_PORT;
  const scheme = env
    .find(e => e.name === SIMULATED_SCHEME_ENV)
    ?.value?.toLowerCase();
  return {
    port,
    https:
      scheme === 'http' || scheme === 'https'
        ? scheme === 'https'
        : container.readinessProbe?.httpGet?.scheme === 'HTTPS',
  };
}

/** The `n`th loopback address of a simulator whose addresses start with `127.<first>.` (n ≥ 1). Pure. */
export function loopbackAddress(first: number, n: number): string {
  // 254 usable host numbers per /24 (no .0, no .255).
  const third = Math.floor((n - 1) / 254) % 256;
  const fourth = ((n - 1) % 254) + 1;
  return `127.${first}.${third}.${fourth}`;
}

/** The server of one pod at `address`: HTTPS with a certificate for that address when `ca` is given. */
export async function podServer(
  address: string,
  ca: { cert: string; key: string } | undefined,
  handler: http.RequestListener,
): Promise<http.Server> {
  if (!ca) return http.createServer(handler);
  const cert = await generateServingCert(
    ca,
    { dnsNames: [], ipAddresses: [address] },
    24 * 3600_000,
  );
  return https.createServer({ cert: cert.cert, key: cert.key }, handler);
}

const isReady = (pod: any) =>
  pod?.status?.phase === 'Running' &&
  (pod.status.conditions ?? []).some(
    (c: any) => c.type === 'Ready' && c.status === 'True',
  );

interface PodServer {
  uid: string;
  address: string;
  server: http.Server;
}

export interface LlamaStackSimulator {
  /** The address each pod (namespace/name) answers on. */
  addresses(): Map<string, string>;
  /** Health requests received, per pod (namespace/name). */
  requests: Map<string, number>;
  stop(): Promise<void>;
}

/** Registers the simulator's controller on `mgr` (started with it). */
export function registerLlamaStackSimulator(
  mgr: Manager,
  options: { firstOctet?: number } = {},
): LlamaStackSimulator {
  // A random second octet: two simulators on one machine (parallel test runs) rarely meet.
  const first = options.firstOctet ?? 16 + Math.floor(Math.random() * 230);
  const fieldManager = `simulator-${LLAMA_STACK_SIMULATOR}`;
  const servers = new Map<string, PodServer>();
  const requests = new Map<string, number>();
  let next = 1;
  let ca: Promise<{ cert: string; key: string }> | undefined;

  const pods = mgr.informers.informerFor<KubeObject>(Pods, {
    labelSelector: LLAMA_STACK_POD_SELECTOR,
  });

  const close = async (key: string) => {
    const s = servers.get(key);
    if (!s) return;
    servers.delete(key);
    s.server.closeAllConnections();
    await new Promise(resolve => s.server.close(resolve));
  };

  /** Listens for the pod on the next free loopback address. */
  const listen = async (key: string, pod: KubeObject): Promise<PodServer> => {
    const endpoint = serverEndpoint(pod);
    const handler: http.RequestListener = (req, res) => {
      // The pod as it is now: a changed env changes the answer.
      const live = pods.store.get(key) ?? pod;
      if (req.method === 'GET' && req.url === LLAMA_STACK_HEALTH_PATH) {
        requests.set(key, (requests.get(key) ?? 0) + 1);
        const answer = simulatedHealth(live);
        res.writeHead(answer.code, { 'content-type': 'application/json' });
        res.end(answer.body);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          detail: `the llama-stack simulator (e2e/simulators) answers only GET ${LLAMA_STACK_HEALTH_PATH}`,
        }),
      );
    };
    for (let attempt = 0; attempt < 16; attempt++) {
      const address = loopbackAddress(first, next++);
      if (endpoint.https)
        ca ??= generateCA('llama-stack simulator', 24 * 3600_000);
      const server = await podServer(
        address,
        endpoint.https ? await ca : undefined,
        handler,
      );
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(endpoint.port, address, () => resolve());
        });
        return { uid: pod.metadata!.uid!, address, server };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
      }
    }
    throw new Error(
      `no free loopback address 127.${first}.x.y with port ${endpoint.port} for pod ${key} after 16 tries`,
    );
  };

  mgr
    .controller()
    .named(fieldManager)
    .for<KubeObject>(Pods, {
      selector: { labelSelector: LLAMA_STACK_POD_SELECTOR },
    })
    .complete(async request => {
      const key = `${request.namespace}/${request.name}`;
      const pod = pods.store.get(key);
      const current = servers.get(key);
      if (!pod || pod.metadata?.deletionTimestamp) {
        await close(key);
        return {};
      }
      if (current && current.uid !== pod.metadata?.uid) await close(key);
      // kwok gives the pod its IP as it makes it Ready; ours replaces it after that.
      if (!isReady(pod)) return {};
      const mine = servers.get(key) ?? (await listen(key, pod));
      servers.set(key, mine);
      if ((pod as any).status?.podIP === mine.address) return {};
      try {
        await mgr.client.apply(
          Pods,
          {
            apiVersion: 'v1',
            kind: 'Pod',
            metadata: { name: request.name, namespace: request.namespace },
            status: { podIP: mine.address, podIPs: [{ ip: mine.address }] },
          },
          { fieldManager, force: true, subresource: 'status' },
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
        await close(key);
      }
      return {};
    });

  return {
    addresses: () =>
      new Map([...servers].map(([key, s]) => [key, s.address] as const)),
    requests,
    stop: async () => {
      await Promise.all([...servers.keys()].map(close));
    },
  };
}

/**
 * The simulator on a manager of its own, started: for tests and benchmarks
 * that run an operator in their process. `client` must be allowed to write
 * pod status (the admin's); `stop` ends the manager and closes the servers.
 */
export function startLlamaStackSimulator(
  client: KubeClient,
): LlamaStackSimulator {
  const mgr = new Manager({
    name: `${LLAMA_STACK_SIMULATOR}-simulator`,
    client,
    logger: silentLogger,
    metrics: false,
    healthProbes: false,
    handleSignals: false,
  });
  const simulator = registerLlamaStackSimulator(mgr);
  const running = mgr.start();
  running.catch(() => undefined);
  return {
    ...simulator,
    stop: async () => {
      await mgr.stop();
      await running.catch(() => undefined);
      await simulator.stop();
    },
  };
}
