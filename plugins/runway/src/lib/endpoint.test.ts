import { conditionTimeline, endpointInfo } from './endpoint';

describe('endpointInfo', () => {
  it('builds an in-cluster example with a port-forward hint', () => {
    const info = endpointInfo({
      metadata: { name: 'llama', namespace: 'ml' },
      spec: { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' } },
      status: { endpoint: { service: 'llama', port: 8000 } },
    });
    expect(info.url).toBe('http://llama.ml.svc:8000');
    expect(info.inCluster).toBe(true);
    expect(info.model).toBe('Llama-3.1-8B-Instruct');
    expect(info.curl).toContain('curl http://llama.ml.svc:8000/v1/chat/completions');
    expect(info.curl).toContain('"model":"Llama-3.1-8B-Instruct"');
    expect(info.portForward).toBe('kubectl -n ml port-forward svc/llama 8000:8000');
  });

  it('uses the gateway URL and model name when there is one', () => {
    const info = endpointInfo({
      metadata: { name: 'llama', namespace: 'ml' },
      spec: { model: { id: 'org/m', servedName: 'chat' } },
      status: { gateway: { endpoint: 'https://gw.example.com/v1', modelName: 'gw-chat' }, endpoint: { service: 's', port: 1 } },
    });
    expect(info).toMatchObject({ url: 'https://gw.example.com/v1', inCluster: false, model: 'gw-chat', portForward: undefined });
    expect(info.curl).toContain('curl https://gw.example.com/v1/chat/completions');
  });

  it('has no example before there is an endpoint', () => {
    expect(endpointInfo({ spec: { model: { id: 'org/m' } } }).curl).toBe('');
  });
});

describe('conditionTimeline', () => {
  it('orders newest first', () => {
    const ordered = conditionTimeline([
      { type: 'Validated', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' },
      { type: 'Ready', status: 'False', lastTransitionTime: '2026-01-01T00:05:00Z' },
      { type: 'EngineSelected', status: 'True', lastTransitionTime: '2026-01-01T00:01:00Z' },
    ]);
    expect(ordered.map(c => c.type)).toEqual(['Ready', 'EngineSelected', 'Validated']);
  });
});
