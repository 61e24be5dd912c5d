import {
  LOGS_NODE,
  modelServerPod,
  requestLine,
  startupLines,
} from './modelServerPods';

describe('model server pods', () => {
  it("matches the operator's Service selector, runs on the logs node, and is owned by the upstream object", () => {
    const pod = modelServerPod(
      {
        apiVersion: 'kaito.sh/v1beta1',
        kind: 'Workspace',
        name: 'llama',
        namespace: 'ml',
        uid: 'u1',
      },
      { 'kaito.sh/workspace': 'llama' },
    );
    expect(pod.metadata).toMatchObject({
      name: 'llama-model-0',
      namespace: 'ml',
      labels: {
        'kaito.sh/workspace': 'llama',
        'runway-portal.dev/simulator': 'model-server-pods',
      },
      ownerReferences: [{ kind: 'Workspace', name: 'llama', uid: 'u1' }],
    });
    expect(pod.spec).toMatchObject({
      nodeName: LOGS_NODE,
      containers: [{ name: 'model' }],
      tolerations: [{ operator: 'Exists' }],
    });
  });

  it('says it is simulated, and stamps each followed line with the time it was written', () => {
    const at = new Date('2026-01-01T00:00:00.000Z');
    const request = {
      namespace: 'ml',
      pod: 'llama-model-0',
      container: 'model',
      previous: false,
      follow: true,
    };
    expect(startupLines(request, at)[0]).toBe(
      '2026-01-01T00:00:00.000Z INFO simulated model server (e2e/simulators, not a real engine) for pod llama-model-0',
    );
    expect(requestLine(3, at)).toBe(
      '2026-01-01T00:00:00.000Z INFO 10.0.0.4 - "POST /v1/chat/completions HTTP/1.1" 200 OK (request 3)',
    );
  });
});
