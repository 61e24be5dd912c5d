import {
  conditionTimeline,
  endpointInfo,
  exampleRequest,
  gatewayNotice,
} from './endpoint';

describe('endpointInfo', () => {
  it('builds an in-cluster example with a port-forward hint when there is no gateway', () => {
    const info = endpointInfo({
      metadata: { name: 'llama', namespace: 'ml' },
      spec: { model: { id: 'meta-llama/Llama-3.1-8B-Instruct' } },
      status: { endpoint: { service: 'llama', port: 8000 } },
    });
    expect(info.gateway).toBeUndefined();
    expect(info.service).toMatchObject({
      url: 'http://llama.ml.svc:8000',
      model: 'Llama-3.1-8B-Instruct',
      portForward: 'kubectl -n ml port-forward svc/llama 8000:8000',
      localUrl: 'http://localhost:8000',
    });
    expect(info.service?.curl).toContain(
      'curl http://llama.ml.svc:8000/v1/chat/completions',
    );
    expect(info.service?.curl).toContain('"model":"Llama-3.1-8B-Instruct"');
  });

  it('puts the gateway first, with its model name, and keeps the Service with the served name', () => {
    const info = endpointInfo({
      metadata: { name: 'llama', namespace: 'ml' },
      spec: {
        model: { id: 'org/m', servedName: 'chat' },
        gateway: { modelName: 'gw-chat' },
      },
      status: {
        gateway: {
          endpoint: 'http://10.0.0.7',
          modelName: 'gw-chat',
          gatewayNamespace: 'gateways',
          apiFormats: ['openai-chat', 'openai-responses'],
        },
        endpoint: { service: 's', port: 8080 },
      },
    });
    expect(info.gateway).toMatchObject({
      url: 'http://10.0.0.7',
      modelName: 'gw-chat',
      gatewayNamespace: 'gateways',
      apiFormats: ['OpenAI chat completions', 'OpenAI responses'],
    });
    expect(info.gateway?.curl).toContain(
      'curl http://10.0.0.7/v1/chat/completions',
    );
    expect(info.gateway?.curl).toContain('"model":"gw-chat"');
    expect(info.service?.url).toBe('http://s.ml.svc:8080');
    expect(info.service?.curl).toContain('"model":"chat"');
  });

  it('does not add /v1 twice and calls the only format the engine has', () => {
    const info = endpointInfo({
      spec: { model: { id: 'org/m' } },
      status: {
        gateway: {
          endpoint: 'https://gw.example.com/v1/',
          modelName: 'm',
          apiFormats: ['anthropic-messages'],
        },
      },
    });
    expect(info.gateway?.curl).toContain(
      'curl https://gw.example.com/v1/messages',
    );
    expect(info.gateway?.curl).toContain("-H 'anthropic-version: 2023-06-01'");
    expect(info.service).toBeUndefined();
  });

  it('is not through the gateway before the core reports its URL', () => {
    const info = endpointInfo({
      spec: { model: { id: 'org/m' } },
      status: { gateway: { modelName: 'm' } },
    });
    expect(info).toEqual({});
  });
});

describe('exampleRequest', () => {
  it('quotes a model name with a single quote for the shell', () => {
    expect(exampleRequest('http://gw', "it's")).toContain(
      `-d '{"model":"it'\\''s",`,
    );
  });
});

describe('gatewayNotice', () => {
  const at = '2026-01-01T00:00:00Z';
  it("shows the controller's reason and message with a readable title", () => {
    const message =
      '2 Gateways found (a/x, b/y) but none labelled airunway.ai/inference-gateway=true: label the one to use';
    expect(
      gatewayNotice([
        {
          type: 'GatewayReady',
          status: 'False',
          reason: 'NoGateway',
          message,
          lastTransitionTime: at,
        },
      ]),
    ).toEqual({
      status: 'False',
      reason: 'NoGateway',
      title: 'No Gateway',
      message,
      severity: 'warning',
    });
  });

  it('weighs failures, choices and unknown reasons', () => {
    const notice = (status: string, reason: string) =>
      gatewayNotice([{ type: 'GatewayReady', status, reason }]);
    expect(notice('False', 'HTTPRouteFailed')).toMatchObject({
      title: 'HTTPRoute failed',
      severity: 'error',
    });
    expect(notice('False', 'GatewayDisabled')).toMatchObject({
      title: 'Gateway disabled',
      severity: 'info',
    });
    expect(notice('False', 'CRDsNotAvailable')).toMatchObject({
      title: 'Gateway API not installed',
      severity: 'info',
    });
    expect(notice('False', 'SomethingNew')).toMatchObject({
      title: 'Something new',
      severity: 'warning',
      message: '',
    });
    expect(notice('True', 'GatewayConfigured')).toMatchObject({
      title: 'Routed through the Gateway',
      severity: 'success',
    });
  });

  it('is undefined without a GatewayReady condition', () => {
    expect(gatewayNotice([{ type: 'Ready', status: 'True' }])).toBeUndefined();
  });
});

describe('conditionTimeline', () => {
  it('orders newest first', () => {
    const ordered = conditionTimeline([
      {
        type: 'Validated',
        status: 'True',
        lastTransitionTime: '2026-01-01T00:00:00Z',
      },
      {
        type: 'Ready',
        status: 'False',
        lastTransitionTime: '2026-01-01T00:05:00Z',
      },
      {
        type: 'EngineSelected',
        status: 'True',
        lastTransitionTime: '2026-01-01T00:01:00Z',
      },
    ]);
    expect(ordered.map(c => c.type)).toEqual([
      'Ready',
      'EngineSelected',
      'Validated',
    ]);
  });
});
