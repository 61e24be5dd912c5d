/**
 * Pod logs through the runway REST API, in a real Backstage backend against
 * a real control plane: the API server proxies `pods/log` to the node's
 * kubelet, here the e2e-cluster's kubelet log stand-in (kwok nodes serve no
 * logs), so every byte travels the path it does in a real cluster.
 */
import { mockCredentials } from '@backstage/backend-test-utils';
import type {
  KubeClient,
  ResourceType,
} from '@runway-portal/controller-runtime';
import {
  kubeletNodeStatus,
  type KubeletLogStandIn,
  startCluster,
  startKubeletLogStandIn,
  type TestCluster,
} from '@runway-portal/e2e-cluster';
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
import { TEAM_A } from '../__testUtils__/permissions';

jest.setTimeout(60_000);

const NODES: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Node',
  plural: 'nodes',
  namespaced: false,
};
const SERVICES: ResourceType = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true,
};
const NOBODY = 'user:default/nobody';
const BASE = '/api/runway/deployments/east/team-a/llama';
const auth = (user: string) => ({
  Authorization: mockCredentials.user.header(user),
});
const setup = { fieldManager: 'test-setup', force: true };

const LOGS: Record<string, string[]> = {
  'llama-0/model': ['line 1', 'line 2', 'line 3', 'line 4', 'line 5'],
  'llama-0/model/previous': ['CUDA error: out of memory'],
  'llama-0/sidecar': ['sidecar ready'],
  'stranger/app': ['a secret'],
};

function pod(
  name: string,
  labels: Record<string, string>,
  containers: string[],
) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'team-a', labels },
    spec: {
      nodeName: 'logs-0',
      containers: containers.map(c => ({ name: c, image: 'x' })),
      // The stand-in node has no kubelet heartbeat: keep the pods when it turns unreachable.
      tolerations: [{ operator: 'Exists' }],
    },
  };
}

describe('pod logs through the runway API against a real cluster', () => {
  let cluster: TestCluster;
  let admin: KubeClient;
  let kubelet: KubeletLogStandIn;
  let server: Server;
  let stopBackend: () => Promise<void>;

  beforeAll(async () => {
    cluster = await startCluster({ name: 'runway-logs', crds: [RUNWAY_CRDS] });
    admin = adminClient(cluster);
    await createNamespaces(admin, ['team-a', 'team-b']);
    const token = await portalServiceAccountToken(admin);
    kubelet = await startKubeletLogStandIn({
      clusterDir: cluster.dir,
      followEveryMs: 100,
      source: {
        lines: r =>
          LOGS[`${r.pod}/${r.container}${r.previous ? '/previous' : ''}`],
        next: (r, n) => `${r.pod} followed ${n}`,
      },
    });
    await admin.apply(
      NODES,
      { apiVersion: 'v1', kind: 'Node', metadata: { name: 'logs-0' } },
      setup,
    );
    await admin.apply(
      NODES,
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'logs-0' },
        status: kubeletNodeStatus(kubelet.port),
      },
      { ...setup, subresource: 'status' },
    );
    // The deployment as its provider reports it: its model's Service, whose selector finds its pods.
    await admin.apply(
      DEPLOYMENTS,
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: 'llama', namespace: 'team-a' },
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
        metadata: { name: 'llama', namespace: 'team-a' },
        status: { phase: 'Running', endpoint: { service: 'llama', port: 80 } },
      },
      { ...setup, subresource: 'status' },
    );
    await admin.apply(
      SERVICES,
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'llama', namespace: 'team-a' },
        spec: {
          selector: { 'kaito.sh/workspace': 'llama' },
          ports: [{ name: 'http', port: 80, targetPort: 5000 }],
        },
      },
      setup,
    );
    await admin.apply(
      PODS,
      pod('llama-0', { 'kaito.sh/workspace': 'llama' }, ['model', 'sidecar']),
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
          containerStatuses: [
            {
              name: 'model',
              ready: true,
              restartCount: 1,
              image: 'x',
              imageID: '',
              state: { running: { startedAt: '2026-01-01T00:00:00Z' } },
              lastState: {
                terminated: { exitCode: 1, reason: 'Error' },
              },
            },
          ],
        },
      },
      { ...setup, subresource: 'status' },
    );
    await admin.apply(PODS, pod('stranger', { app: 'other' }, ['app']), setup);

    ({ server, stop: stopBackend } = await startRunwayBackend({
      clusters: [clusterConfigEntry('east', cluster, token)],
      runway: { requestTimeout: { milliseconds: 5_000 } },
    }));
  }, 30 * 60_000);

  afterAll(async () => {
    await stopBackend?.();
    await kubelet?.stop();
    await cluster?.stop();
  });

  const api = () => contractChecked(request(server));

  it("lists the deployment's pods by its Service's selector, with each container's state and restarts", async () => {
    const res = await api().get(`${BASE}/pods`).set(auth(TEAM_A));
    expect(res.status).toBe(200);
    expect(res.body.selectors).toEqual(['kaito.sh/workspace=llama']);
    expect(res.body.pods.map((p: any) => p.name)).toEqual(['llama-0']);
    expect(res.body.pods[0]).toMatchObject({
      phase: 'Running',
      node: 'logs-0',
      containers: [
        {
          name: 'model',
          ready: true,
          restartCount: 1,
          state: 'running',
          hasPrevious: true,
        },
        {
          name: 'sidecar',
          ready: false,
          restartCount: 0,
          hasPrevious: false,
        },
      ],
    });
  });

  it("reads a bounded tail of a container's log, another container's, and the previous instance's", async () => {
    const tail = await api()
      .get(`${BASE}/pods/llama-0/log?tailLines=2`)
      .set(auth(TEAM_A));
    expect(tail.status).toBe(200);
    expect(tail.body).toEqual({
      pod: 'llama-0',
      container: 'model',
      previous: false,
      lines: ['line 4', 'line 5'],
      truncated: false,
    });
    const sidecar = await api()
      .get(`${BASE}/pods/llama-0/log?container=sidecar`)
      .set(auth(TEAM_A));
    expect(sidecar.body.lines).toEqual(['sidecar ready']);
    const previous = await api()
      .get(`${BASE}/pods/llama-0/log?previous=true`)
      .set(auth(TEAM_A));
    expect(previous.body).toMatchObject({
      previous: true,
      lines: ['CUDA error: out of memory'],
    });
    // The API server passed the tail on to the kubelet: the log was never read whole.
    expect(kubelet.requests).toContainEqual(
      expect.objectContaining({ pod: 'llama-0', tailLines: 2 }),
    );
  });

  it("refuses a pod that is not the deployment's, and bad parameters, naming them, before reading anything", async () => {
    const before = kubelet.requests.length;
    const stranger = await api()
      .get(`${BASE}/pods/stranger/log`)
      .set(auth(TEAM_A));
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.message).toBe(
      'pod "stranger" is not one of the pods of ModelDeployment team-a/llama (its pods match kaito.sh/workspace=llama): the portal reads only the logs of a resource\'s own pods',
    );
    // A pod that does not exist is refused alike (the answer does not say which pods exist elsewhere).
    const nowhere = await api()
      .get(`${BASE}/pods/nowhere/log?follow=true`)
      .set(auth(TEAM_A));
    expect(nowhere.status).toBe(403);
    const bad = await api()
      .get(`${BASE}/pods/llama-0/log?tailLines=100000&container=Bad_Name`)
      .set(auth(TEAM_A));
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: any) => i.path)).toEqual([
      'container',
      'tailLines',
    ]);
    const missing = await api()
      .get(`${BASE}/pods/llama-0/log?container=nope`)
      .set(auth(TEAM_A));
    expect(missing.status).toBe(400);
    expect(missing.body.issues).toEqual([
      {
        path: 'container',
        message: "choose one of the pod's containers: model, sidecar",
        severity: 'error',
      },
    ]);
    expect(kubelet.requests.length).toBe(before);
  });

  it('answers 403 without runway.logs.read, and reads nothing (no pod list, no log)', async () => {
    const before = kubelet.requests.length;
    for (const path of [
      `${BASE}/pods`,
      `${BASE}/pods/llama-0/log`,
      `${BASE}/log?follow=true`,
    ]) {
      const res = await api().get(path).set(auth(NOBODY));
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(
        /^you do not have permission runway\.logs\.read/,
      );
    }
    // Conditional on the namespace, like the resource permissions.
    const elsewhere = await api()
      .get('/api/runway/deployments/east/team-b/llama/pods')
      .set(auth(TEAM_A));
    expect(elsewhere.status).toBe(403);
    expect(kubelet.requests.length).toBe(before);
  });

  it("opens the deployment's log in one request: its pods, then its first pod's lines, and says how long each step took", async () => {
    const tail = await api().get(`${BASE}/log?tailLines=2`).set(auth(TEAM_A));
    expect(tail.status).toBe(200);
    expect(tail.body.pods.pods.map((p: any) => p.name)).toEqual(['llama-0']);
    expect(tail.body.log).toEqual({
      pod: 'llama-0',
      container: 'model',
      previous: false,
      lines: ['line 4', 'line 5'],
      truncated: false,
    });
    expect(tail.headers['server-timing']).toMatch(
      /^authz;dur=[\d.]+, resolve;dur=[\d.]+, pods;dur=[\d.]+, open;dur=[\d.]+$/,
    );

    const { port } = server.address() as AddressInfo;
    const events: string[] = [];
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: `${BASE}/log?follow=true&tailLines=2`,
      headers: { ...auth(TEAM_A), Accept: 'text/event-stream' },
    });
    req.on('response', res => {
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        buffer += chunk;
        const blocks = buffer.split('\n\n');
        buffer = blocks.pop()!;
        events.push(...blocks);
      });
    });
    await eventually(
      async () => (events.length >= 4 ? true : undefined),
      10_000,
      'the pods, the tail and a followed line',
    );
    req.destroy();
    const start = JSON.parse(events[0].replace(/^event: pods\ndata: /, ''));
    expect(start).toMatchObject({ pod: 'llama-0', container: 'model' });
    expect(start.pods.selectors).toEqual(['kaito.sh/workspace=llama']);
    expect(events.slice(1, 4)).toEqual([
      'data: line 4',
      'data: line 5',
      'data: llama-0 followed 0',
    ]);
  });

  it('opens the log of a deployment without pods with its empty pod list, and ends', async () => {
    await admin.apply(
      DEPLOYMENTS,
      {
        apiVersion: 'airunway.ai/v1alpha1',
        kind: 'ModelDeployment',
        metadata: { name: 'empty', namespace: 'team-a' },
        spec: {
          model: { id: 'meta-llama/Llama-3.1-8B-Instruct' },
          engine: { type: 'vllm' },
          resources: { gpu: { count: 1 } },
        },
      },
      setup,
    );
    const path = '/api/runway/deployments/east/team-a/empty/log';
    const answer = await eventually(
      async () => {
        const res = await api().get(path).set(auth(TEAM_A));
        return res.status === 200 ? res : undefined;
      },
      10_000,
      'the new deployment in the cache',
    );
    expect(answer.body).toEqual({
      pods: { cluster: 'east', pods: [], selectors: [] },
    });
    const followed = await request(server)
      .get(`${path}?follow=true`)
      .set(auth(TEAM_A));
    expect(followed.status).toBe(200);
    expect(followed.text).toBe(
      `event: pods\ndata: ${JSON.stringify({
        pods: { cluster: 'east', pods: [], selectors: [] },
      })}\n\nevent: end\ndata: \n\n`,
    );
  });

  it('follows a log as server-sent events, and stops reading from the cluster when the client goes', async () => {
    const { port } = server.address() as AddressInfo;
    const received: string[] = [];
    const opened = Date.now();
    let firstLineMs = 0;
    const req = http.get({
      host: '127.0.0.1',
      port,
      path: `${BASE}/pods/llama-0/log?follow=true&tailLines=2`,
      headers: { ...auth(TEAM_A), Accept: 'text/event-stream' },
    });
    const contentType = await new Promise<string>((resolve, reject) => {
      req.on('error', reject);
      req.on('response', res => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          for (const m of chunk.matchAll(/^data: (.*)$/gm)) {
            if (received.length === 0) firstLineMs = Date.now() - opened;
            received.push(m[1]);
          }
        });
        resolve(String(res.headers['content-type']));
      });
    });
    expect(contentType).toMatch(/^text\/event-stream/);
    await eventually(
      async () => (received.length >= 5 ? true : undefined),
      10_000,
      'the tail and three followed lines',
    );
    expect(received.slice(0, 3)).toEqual([
      'line 4',
      'line 5',
      'llama-0 followed 0',
    ]);
    const follower = kubelet.followers[kubelet.followers.length - 1];
    expect(follower.closedAt).toBeUndefined();
    // eslint-disable-next-line no-console
    console.log(`first log line after ${firstLineMs} ms`);

    req.destroy();
    const left = Date.now();
    await eventually(
      async () => follower.closedAt,
      10_000,
      'the cluster-side log stream to close after the client went',
    );
    // eslint-disable-next-line no-console
    console.log(
      `the kubelet's stream closed ${
        follower.closedAt! - left
      } ms after the client went`,
    );
  });
});
