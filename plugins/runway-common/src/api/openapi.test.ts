import { answerMismatches } from './contract';
import { runwayOpenApiDocument } from './openapi';

/** Every `$ref` in a value. */
function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach(v => refsIn(v, out));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

describe('the OpenAPI document derived from the contract', () => {
  const doc = JSON.parse(JSON.stringify(runwayOpenApiDocument));

  it('resolves every reference to a component, and carries no $id or TypeBox symbol', () => {
    const names = Object.keys(doc.components.schemas);
    for (const ref of refsIn(doc))
      expect(names).toContain(ref.replace('#/components/schemas/', ''));
    expect(JSON.stringify(doc)).not.toContain('"$id"');
    // Shapes used in several answers are written once, as components.
    expect(names).toEqual(
      expect.arrayContaining([
        'KubeObject',
        'ObjectMeta',
        'ClusterError',
        'ClusterFreshness',
        'ValidationIssue',
      ]),
    );
  });

  it('describes the same operations as before, each answer by a contract schema', () => {
    const ops = Object.values(doc.paths).flatMap((p: any) =>
      Object.values(p).map((o: any) => o.operationId),
    );
    expect(ops.sort()).toEqual([
      'ChatWithDeployment',
      'CreateResource',
      'DeleteResource',
      'GetClusterDoctor',
      'GetResource',
      'ListClusters',
      'ListPods',
      'ListResources',
      'ListSecretNames',
      'ListStorageClasses',
      'PreviewResource',
      'ReadPodLog',
      'ReadResourceLog',
      'SearchHub',
      'UpdateResource',
    ]);
    expect(doc.paths['/{kind}'].get.parameters[0].schema.enum).toEqual([
      'deployments',
      'models',
      'stacks',
    ]);
    expect(
      doc.components.schemas.ClusterError.properties.reason.enum,
    ).toContain('Unreachable');
  });

  it('names each field where an answer departs from it', () => {
    const freshness = {
      cluster: 'east',
      synced: true,
      dataAgeMs: 0,
      state: 'ok',
      message: '',
      lastSeen: '2026-01-01T00:00:00.000Z',
      stale: false,
    };
    expect(
      answerMismatches('ListResources', {
        items: [],
        clusters: [freshness],
        errors: [],
      }),
    ).toEqual([]);
    expect(
      answerMismatches('ListResources', {
        items: [{ cluster: 'east', object: { kind: 'X' } }],
        clusters: [],
        errors: [],
        extra: 1,
      }),
    ).toEqual([expect.stringMatching(/^\/extra: /)]);
    expect(
      answerMismatches('ListClusters', {
        items: [],
        clusters: [{ ...freshness, dataAgeMs: 'old' }],
        errors: [],
      }).join('\n'),
    ).toMatch(/\/clusters\/0\/dataAgeMs/);
    expect(
      answerMismatches('ListClusters', {
        items: [],
        clusters: [{ ...freshness, state: 'down' }],
        errors: [],
      }).join('\n'),
    ).toMatch(/\/clusters\/0\/state/);
    expect(
      answerMismatches('ErrorBody', {
        error: { name: 'InputError', message: 'no' },
        issues: [{ path: 'spec', message: 'm', severity: 'error' }],
      }),
    ).toEqual([]);
  });
});
