/**
 * "Try it" through the runway REST API, in a real Backstage backend against
 * a real control plane: the backend posts to the deployment's Service
 * through the API server's service proxy, the endpoints controller has
 * resolved the Service to a pod whose IP and port are e2e-simulators' OpenAI
 * API simulator's, so every byte travels the path it does in a real cluster.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import type {
  KubeClient,
  ResourceType,
} from '@runway-portal/controller-runtime';
import { startCluster, type TestCluster } from '@runway-portal/e2e-cluster';
import {
  type OpenAiSimulator,
  readyNodeCondition,
  startOpenAiSimulator,
} from '@runway-portal/e2e-simulators';
import {
  CHAT_CONTENT_BYTES_MAX,
  chatStreamPart,
  SseDecoder,
} from '@runway-portal/plugin-runway-common';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { startRunwayBackend } from '../__testUtils__/backend';
import {
  adminClient,
  clusterConfigEntry,
  createNamespaces,
  DEPLOYMENTS,
  eventually,
  PODS,
  portalServiceAccountToken,
  RUNWAY_CRDS,
} from '../__testUtils__/clusters';
import { contractChecked } from '../__testUtils__/contract';
import { TEAM_A, VIEWER } from '../__testUtils__/permissions';

jest.setTimeout(60_000);

const SERVICES: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true,
};
const NODES: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
};
const BASE = '/api/runway/deployments/east/team-a';
const auth = (user: string) => ({
  Authorization: mockCredentials.user.header(user),
});
const setup = { fieldManager: 'test-setup', force: true };
const hello = { messages: [{ role: 'user', content: 'Hello there' }] };

async function deployment(
  admin: KubeClient,
  name: string,
  status: Record<string, unknown>,
) {
  const meta = { name, namespace: 'team-a' };
  await admin.apply(
    DEPLOYMENTS,
    {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: meta,
      spec: {
        model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
        engine: { type: 'vllm' },
        resources: { gpu: { count: 1 } },
      },
    },
    setup,
  );
  await admin.apply(
    DEPLOYMENTS,
    {
      apiVersion: 'airunway.ai/v1alpha1',
      kind: 'ModelDeployment',
      metadata: meta,
      status,
    },
    { ...setup, subresource: 'status' },
  );
}

/** Posts a chat request and collects the answer's text as it streams. */
function chat(port: number, user: string, name: string, body: unknown) {
  return new Promise<{
    status: number;
    contentType: string;
    text: string;
    errors: string[];
  }>((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `${BASE}/${name}/chat`,
        headers: { ...auth(user), 'Content-Type': 'application/json' },
      },
      res => {
        const decoder = new SseDecoder();
        let text = '';
        const errors: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          for (const event of decoder.push(chunk)) {
            const part = chatStreamPart(event);
            if (part?.type === 'text') text += part.text;
            if (part?.type === 'error') errors.push(part.message);
          }
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            text,
            errors,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('Try it: chat with a deployment through the runway API against a real cluster', () => {
  let cluster: TestCluster;
  let admin: KubeClient;
  let openAi: OpenAiSimulator;
  let server: Server;
  let stopBackend: () => Promise<void>;

  beforeAll(async () => {
    cluster = await startCluster({ name: 'runway-chat', crds: [RUNWAY_CRDS] });
    admin = adminClient(cluster);
    await createNamespaces(admin, ['team-a']);
    const token = await portalServiceAccountToken(admin);
    openAi = await startOpenAiSimulator({ tokenDelayMs: 5 });
    await deployment(admin, 'llama', {
      phase: 'Running',
      endpoint: { service: 'llama', port: 80 },
      gateway: { modelName: 'llama-3.1-8b' },
    });
    await deployment(admin, 'pending', {
      phase: 'Deploying',
      endpoint: { service: 'pending', port: 80 },
    });
    await admin.apply(
      SERVICES,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'llama', namespace: 'team-a' },
        spec: {
          selector: { 'kaito.sh/workspace': 'llama' },
          ports: [{ name: 'http', port: 80, targetPort: 'http' }],
        },
      },
      setup,
    );
    // A node no kwok manages (nothing else writes its pods' status), Ready as a kubelet reports it:
    // an endpoint address names its node, and the node lifecycle controller keeps pods Ready.
    await admin.apply(
      NODES,
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'chat-0' } },
      setup,
    );
    await admin.apply(
      NODES,
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'chat-0' },
        status: {
          conditions: [readyNodeCondition(new Date(), new Date())],
        },
      },
      { ...setup, subresource: 'status' },
    );
    // A model server pod whose IP and named port are the simulator's.
    await admin.apply(
      PODS,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'llama-0',
          namespace: 'team-a',
          labels: { 'kaito.sh/workspace': 'llama' },
        },
        spec: {
          nodeName: 'chat-0',
          tolerations: [{ operator: 'Exists' }],
          containers: [
            {
              name: 'model',
              image: 'x',
              ports: [{ name: 'http', containerPort: openAi.port }],
            },
          ],
        },
      },
      setup,
    );
    await admin.apply(
      PODS,
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'llama-0', namespace: 'team-a' },
        status: {
          phase: 'Running',
          podIP: openAi.host,
          podIPs: [{ ip: openAi.host }],
          conditions: [{ type: 'Ready', status: 'True' }],
        },
      },
      { ...setup, subresource: 'status' },
    );
    await eventually(
      async () => {
        const eps = await admin
          .request<any>({
            method: 'GET',
            path: '/api/v1/namespaces/team-a/endpoints/llama',
          })
          .catch(err => ({ error: String(err) }));
        if (eps?.subsets?.[0]?.addresses?.length) return eps;
        const pod = await admin.get<any>(PODS, {
          namespace: 'team-a',
          name: 'llama-0',
        });
        throw new Error(
          `endpoints ${JSON.stringify(eps)}, pod status ${JSON.stringify(
            pod.status,
          )}`,
        );
      },
      30_000,
      "the endpoints controller to resolve the Service to the simulator's pod",
    );

    ({ server, stop: stopBackend } = await startRunwayBackend({
      clusters: [clusterConfigEntry('east', cluster, token)],
      runway: { requestTimeout: { milliseconds: 5_000 } },
    }));
  }, 30 * 60_000);

  afterAll(async () => {
    await stopBackend?.();
    await openAi?.stop();
    await cluster?.stop();
  });

  const api = () => contractChecked(request(server));

  it('answers 403 without runway.chat.send, and the model server receives nothing', async () => {
    const res = await api()
      .post(`${BASE}/llama/chat`)
      .set(auth(VIEWER))
      .send(hello);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(
      /^you do not have permission runway\.chat\.send/,
    );
    // Conditional on the namespace: team-a may not chat in team-b.
    const elsewhere = await api()
      .post('/api/runway/deployments/east/team-b/llama/chat')
      .set(auth(TEAM_A))
      .send(hello);
    expect(elsewhere.status).toBe(403);
    expect(openAi.calls).toEqual([]);
  });

  it('refuses an oversize or malformed request with 400 naming each field, and sends nothing', async () => {
    const big = await api()
      .post(`${BASE}/llama/chat`)
      .set(auth(TEAM_A))
      .send({
        messages: [
          { role: 'user', content: 'x'.repeat(CHAT_CONTENT_BYTES_MAX + 1) },
        ],
        max_tokens: 100_000,
      });
    expect(big.status).toBe(400);
    expect(big.body.issues.map((i: any) => i.path)).toEqual([
      'messages',
      'max_tokens',
    ]);
    expect(big.body.issues[0].message).toContain('at most 16384 bytes');
    expect(big.body.issues[1].message).toContain('1 to 2048');
    expect(openAi.calls).toEqual([]);
  });

  it('refuses a deployment that is not Running with 409 naming its phase', async () => {
    const res = await api()
      .post(`${BASE}/pending/chat`)
      .set(auth(TEAM_A))
      .send(hello);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(
      'ModelDeployment team-a/pending: the deployment is Deploying, not Running: it can answer once its phase is Running',
    );
    expect(openAi.calls).toEqual([]);
  });

  it("streams the model server's answer through the service proxy, with the served model and stream: true", async () => {
    const { port } = server.address() as AddressInfo;
    const answer = await chat(port, TEAM_A, 'llama', {
      ...hello,
      max_tokens: 64,
    });
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^text\/event-stream/);
    expect(answer.errors).toEqual([]);
    expect(answer.text).toBe(
      'This is a simulated answer from llama-3.1-8b (e2e/simulators, an OpenAI API simulator, not a model). You said: "Hello there".',
    );
    expect(openAi.calls).toHaveLength(1);
    expect(openAi.calls[0]).toMatchObject({
      path: '/v1/chat/completions',
      model: 'llama-3.1-8b',
      stream: true,
      messages: hello.messages,
    });
  });

  it('closes the request to the model server when the client goes', async () => {
    const { port } = server.address() as AddressInfo;
    const before = openAi.calls.length;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `${BASE}/llama/chat`,
      headers: { ...auth(TEAM_A), 'Content-Type': 'application/json' },
    });
    await new Promise<void>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', res => {
        res.once('data', () => resolve());
      });
      // Many tokens, slowly enough that the answer is still streaming when the client goes.
      req.end(
        JSON.stringify({
          messages: [{ role: 'user', content: 'word '.repeat(2000) }],
          max_tokens: 2048,
        }),
      );
    });
    req.destroy();
    const left = Date.now();
    const abortedAt = await eventually(
      async () => openAi.calls[before]?.abortedAt,
      10_000,
      "the model server's request to close after the client went",
    );
    // Closed early: the whole answer (2048 words, 5 ms each) would take over 10 s.
    expect(abortedAt - left).toBeLessThan(5_000);
    // eslint-disable-next-line no-console
    console.log(
      `the model server's request closed ${
        abortedAt - left
      } ms after the client went`,
    );
  });
});
