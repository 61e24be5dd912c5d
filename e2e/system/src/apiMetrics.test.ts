import {
  BENCH_METRICS,
  counterDelta,
  histogramDelta,
  histogramQuantile,
  shareWithin,
  parseMetrics,
  requestsByVerbAndResource,
  webhookCalls,
  webhookHistogram,
  writeSummary,
} from './apiMetrics';

const TEXT = `# HELP apiserver_request_total [STABLE] Counter of apiserver requests
# TYPE apiserver_request_total counter
apiserver_request_total{code="201",component="apiserver",dry_run="",group="",resource="events",scope="resource",subresource="",verb="POST",version="v1"} 12
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="events",scope="resource",subresource="",verb="PATCH",version="v1"} 3
apiserver_request_total{code="200",component="apiserver",dry_run="",group="airunway.ai",resource="modeldeployments",scope="resource",subresource="status",verb="APPLY",version="v1alpha1"} 7
apiserver_request_total{code="409",component="apiserver",dry_run="",group="airunway.ai",resource="modeldeployments",scope="resource",subresource="status",verb="APPLY",version="v1alpha1"} 1
apiserver_request_total{code="200",component="apiserver",dry_run="",group="",resource="pods",scope="cluster",subresource="",verb="LIST",version="v1"} 5
apiserver_admission_webhook_admission_duration_seconds_bucket{name="m.airunway.ai",operation="CREATE",rejected="false",type="admit",le="0.005"} 90
apiserver_admission_webhook_admission_duration_seconds_bucket{name="m.airunway.ai",operation="CREATE",rejected="false",type="admit",le="0.025"} 100
apiserver_admission_webhook_admission_duration_seconds_bucket{name="m.airunway.ai",operation="CREATE",rejected="false",type="admit",le="+Inf"} 100
apiserver_admission_webhook_admission_duration_seconds_count{name="m.airunway.ai",operation="CREATE",rejected="false",type="admit"} 100
apiserver_admission_webhook_admission_duration_seconds_count{name="m.airunway.ai",operation="UPDATE",rejected="false",type="admit"} 4
etcd_request_duration_seconds_count{operation="get"} 99
`;

describe('parseMetrics', () => {
  it('reads the named metrics with their labels and skips the rest', () => {
    const samples = parseMetrics(TEXT, BENCH_METRICS);
    expect(samples).toHaveLength(10);
    expect(samples[0]).toEqual({
      name: 'apiserver_request_total',
      labels: expect.objectContaining({ verb: 'POST', resource: 'events' }),
      value: 12,
    });
  });

  it('unescapes label values and ignores lines it cannot read', () => {
    const samples = parseMetrics(
      'apiserver_request_total{verb="GET",resource="a\\"b"} 1\nnot a metric line\napiserver_request_total{verb="GET"} NaNx\n',
      BENCH_METRICS,
    );
    expect(samples).toEqual([
      {
        name: 'apiserver_request_total',
        labels: { verb: 'GET', resource: 'a"b' },
        value: 1,
      },
    ]);
  });
});

describe('requests by verb and resource', () => {
  const samples = parseMetrics(TEXT, BENCH_METRICS);

  it('sums over codes and names the subresource', () => {
    const requests = requestsByVerbAndResource(samples);
    expect(requests.get('APPLY modeldeployments/status')).toBe(8);
    expect(requests.get('POST events')).toBe(12);
    expect(requests.get('LIST pods')).toBe(5);
  });

  it('keeps only what grew between two snapshots', () => {
    const before = new Map([
      ['POST events', 10],
      ['LIST pods', 5],
    ]);
    const after = new Map([
      ['POST events', 12],
      ['LIST pods', 5],
      ['APPLY deployments', 1],
    ]);
    expect([...counterDelta(before, after)]).toEqual([
      ['POST events', 2],
      ['APPLY deployments', 1],
    ]);
  });

  it('counts writes, Events created and Events bumped; reads are not writes', () => {
    expect(writeSummary(requestsByVerbAndResource(samples))).toEqual({
      mutating: 23,
      eventCreates: 12,
      eventPatches: 3,
    });
  });
});

describe('webhook latency', () => {
  const samples = parseMetrics(TEXT, BENCH_METRICS);

  it('sums the histogram and counts calls per operation', () => {
    expect([...webhookHistogram(samples, 'CREATE')]).toEqual([
      [0.005, 90],
      [0.025, 100],
      [Infinity, 100],
    ]);
    expect(webhookHistogram(samples, 'UPDATE').size).toBe(0);
    expect(webhookCalls(samples).get('UPDATE')).toBe(4);
  });

  it('interpolates a quantile within its bucket like histogram_quantile', () => {
    const h = webhookHistogram(samples, 'CREATE');
    expect(histogramQuantile(0.5, h)).toBeCloseTo(0.005 * (50 / 90));
    expect(histogramQuantile(0.99, h)).toBeCloseTo(0.005 + 0.02 * (9 / 10));
    expect(histogramQuantile(0.99, new Map())).toBeUndefined();
  });

  it('counts the share of observations within a bucket bound exactly', () => {
    const h = webhookHistogram(samples, 'CREATE');
    expect(shareWithin(0.005, h)).toBeCloseTo(90 / 100);
    expect(shareWithin(0.025, h)).toBe(1);
    expect(shareWithin(0.003, h)).toBeUndefined();
    expect(shareWithin(0.005, new Map())).toBeUndefined();
  });

  it('answers the highest finite bound when the quantile is in +Inf', () => {
    const h = new Map([
      [0.005, 1],
      [0.025, 2],
      [Infinity, 10],
    ]);
    expect(histogramQuantile(0.99, h)).toBe(0.025);
  });

  it('subtracts bucket by bucket', () => {
    const before = new Map([
      [0.005, 10],
      [Infinity, 12],
    ]);
    const after = new Map([
      [0.005, 30],
      [Infinity, 40],
    ]);
    expect([...histogramDelta(before, after)]).toEqual([
      [0.005, 20],
      [Infinity, 28],
    ]);
  });
});
