import {
  endpointServiceName,
  INJECTED_PODS_SELECTOR,
  podBelongs,
  podSelectors,
  podSummary,
  podUsesModel,
  selectorString,
  sortPods,
} from './pods';

describe("a resource's pods", () => {
  it('turns label selectors into query strings, and never selects a whole namespace', () => {
    expect(
      selectorString({
        matchLabels: { app: 'llama' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['gpu', 'cpu'] },
          { key: 'legacy', operator: 'DoesNotExist' },
          { key: 'zone', operator: 'Exists' },
          { key: 'env', operator: 'NotIn', values: ['dev'] },
        ],
      }),
    ).toBe('app=llama,tier in (gpu,cpu),!legacy,zone,env notin (dev)');
    expect(selectorString({})).toBeUndefined();
    expect(selectorString({ matchLabels: {} })).toBeUndefined();
    expect(
      selectorString({
        matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }],
      }),
    ).toBeUndefined();
  });

  it("finds pods by the endpoint Service's selector and each owned workload's, never by name", () => {
    const service = {
      kind: 'Service',
      metadata: { name: 'llama' },
      spec: { selector: { 'kaito.sh/workspace': 'llama' } },
    };
    const owned = [
      {
        kind: 'Deployment',
        metadata: { name: 'llama-epp' },
        spec: { selector: { matchLabels: { app: 'llama-epp' } } },
      },
      // Not a workload: its selector is not a pod selector.
      { kind: 'InferencePool', spec: { selector: { app: 'x' } } },
      { kind: 'Job', spec: { selector: {} } },
    ];
    // The model servers' selector first.
    expect(podSelectors(owned as any, service as any)).toEqual([
      'kaito.sh/workspace=llama',
      'app=llama-epp',
    ]);
    expect(podSelectors([], undefined)).toEqual([]);
    expect(
      endpointServiceName({ status: { endpoint: { service: 'llama' } } }),
    ).toBe('llama');
    expect(endpointServiceName({ status: {} })).toBeUndefined();
  });

  it("summarises a pod's containers: state with its reason, restarts, whether a previous log exists", () => {
    const summary = podSummary({
      metadata: { name: 'llama-0', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        nodeName: 'gpu-0',
        containers: [{ name: 'model' }, { name: 'sidecar' }, { name: 'init' }],
      },
      status: {
        phase: 'Running',
        containerStatuses: [
          {
            name: 'model',
            ready: false,
            restartCount: 3,
            state: { waiting: { reason: 'CrashLoopBackOff' } },
          },
          {
            name: 'sidecar',
            ready: true,
            restartCount: 0,
            state: { running: {} },
          },
        ],
      },
    } as any);
    expect(summary).toEqual({
      name: 'llama-0',
      phase: 'Running',
      node: 'gpu-0',
      createdAt: '2026-01-01T00:00:00Z',
      containers: [
        {
          name: 'model',
          ready: false,
          restartCount: 3,
          state: 'waiting: CrashLoopBackOff',
          hasPrevious: true,
        },
        {
          name: 'sidecar',
          ready: true,
          restartCount: 0,
          state: 'running',
          hasPrevious: false,
        },
        {
          name: 'init',
          ready: false,
          restartCount: 0,
          state: 'waiting',
          hasPrevious: false,
        },
      ],
    });
    expect(
      sortPods([
        { name: 'b', phase: 'Running', containers: [] },
        { name: 'a', phase: 'Pending', containers: [] },
        { name: 'a2', phase: 'Running', containers: [] },
      ]).map(p => p.name),
    ).toEqual(['a2', 'b', 'a']);
    expect(
      sortPods(
        [
          { name: 'epp', phase: 'Running', containers: [] },
          { name: 'model', phase: 'Pending', containers: [] },
        ],
        p => (p.name === 'model' ? 0 : 1),
      ).map(p => p.name),
    ).toEqual(['model', 'epp']);
  });
});

describe('podUsesModel', () => {
  const pod = (labels: Record<string, string>, inject?: string) =>
    ({
      metadata: {
        name: 'p',
        labels,
        annotations: inject ? { 'models.airunway.ai/inject': inject } : {},
      },
    } as any);

  it('finds the pods the webhook injected with the model', () => {
    const injected = { 'models.airunway.ai/injected': 'true' };
    expect(podUsesModel(pod(injected, 'tiny'), 'tiny')).toBe(true);
    expect(podUsesModel(pod(injected, 'llama, tiny'), 'tiny')).toBe(true);
    expect(podUsesModel(pod(injected, 'tiny-2'), 'tiny')).toBe(false);
    // Asked for, but not (yet) injected: the webhook denied or did not see it.
    expect(podUsesModel(pod({}, 'tiny'), 'tiny')).toBe(false);
    expect(INJECTED_PODS_SELECTOR).toBe('models.airunway.ai/injected=true');
  });

  it("says whether a pod is the resource's as listing by its selectors would, before any log is read", () => {
    const labelled = (labels: Record<string, string>, annotations = {}) => ({
      metadata: { name: 'p', labels, annotations },
    });
    const selectors = [
      'kaito.sh/workspace=llama',
      'app in (epp,router),!canary',
    ];
    expect(
      podBelongs(
        labelled({ 'kaito.sh/workspace': 'llama' }),
        selectors,
        'llama',
      ),
    ).toBe(true);
    expect(podBelongs(labelled({ app: 'router' }), selectors, 'llama')).toBe(
      true,
    );
    expect(
      podBelongs(labelled({ app: 'router', canary: 'y' }), selectors, 'llama'),
    ).toBe(false);
    expect(
      podBelongs(
        labelled({ 'kaito.sh/workspace': 'other' }),
        selectors,
        'llama',
      ),
    ).toBe(false);
    // No selector (nothing created yet): no pod is the resource's.
    expect(podBelongs(labelled({ app: 'router' }), [], 'llama')).toBe(false);
    // A model's injected pods: only those naming it.
    const injected = (names: string) =>
      labelled(
        { 'models.airunway.ai/injected': 'true' },
        { 'models.airunway.ai/inject': names },
      );
    expect(
      podBelongs(injected('other, qwen'), [INJECTED_PODS_SELECTOR], 'qwen'),
    ).toBe(true);
    expect(
      podBelongs(injected('other'), [INJECTED_PODS_SELECTOR], 'qwen'),
    ).toBe(false);
  });
});
