import type { KubeObject } from '@runway-portal/controller-runtime';
import { chatProxyPath, chatTarget, upstreamChatBody } from './chat';

const md = (status: object, spec: object = {}): KubeObject =>
  ({
    apiVersion: 'airunway.ai/v1alpha1',
    kind: 'ModelDeployment',
    metadata: { name: 'llama', namespace: 'ml' },
    spec: { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' }, ...spec },
    status,
  } as KubeObject);

describe('chatTarget', () => {
  it('refuses a deployment that is not Running, naming its phase', () => {
    expect(chatTarget(md({ phase: 'Deploying' }))).toEqual({
      refused:
        'the deployment is Deploying, not Running: it can answer once its phase is Running',
    });
    expect(chatTarget(md({}))).toEqual({
      refused:
        'the deployment is unknown, not Running: it can answer once its phase is Running',
    });
    expect(chatTarget(md({ phase: 'Running' }))).toEqual({
      refused: expect.stringContaining('no status.endpoint.service yet'),
    });
  });

  it("sends to the endpoint Service with the gateway's model name, else the served name", () => {
    const endpoint = { service: 'llama-frontend', port: 8000 };
    expect(
      chatTarget(
        md({ phase: 'Running', endpoint, gateway: { modelName: 'llama-8b' } }),
      ),
    ).toEqual({
      target: { service: 'llama-frontend', port: 8000, model: 'llama-8b' },
    });
    expect(chatTarget(md({ phase: 'Running', endpoint }))).toEqual({
      target: {
        service: 'llama-frontend',
        port: 8000,
        model: 'Llama-3.1-8B-Instruct',
      },
    });
    expect(
      chatTarget(
        md(
          { phase: 'Running', endpoint: { service: 's' } },
          { model: { id: 'org/x', servedName: 'mine' } },
        ),
      ),
    ).toEqual({ target: { service: 's', port: 80, model: 'mine' } });
  });

  it('builds the service proxy path and the body the model server receives', () => {
    const target = { service: 'llama', port: 80, model: 'm' };
    expect(chatProxyPath('ml', target)).toBe(
      '/api/v1/namespaces/ml/services/llama%3A80/proxy/v1/chat/completions',
    );
    expect(
      upstreamChatBody(
        { messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 },
        target,
      ),
    ).toEqual({
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 5,
      model: 'm',
      stream: true,
    });
  });
});
