import {
  checkTarget,
  invalidResourceError,
  parseResourceInput,
  portalLink,
  withNamespace,
} from './resource';

describe('runway:apply inputs', () => {
  it('parses the resource from an object or YAML text', () => {
    expect(parseResourceInput('models', { kind: 'Model' })).toEqual({
      kind: 'Model',
    });
    expect(
      parseResourceInput('models', 'kind: Model\nmetadata: { name: m }'),
    ).toEqual({ kind: 'Model', metadata: { name: 'm' } });
  });

  it('names input.resource when it is not YAML or not one object', () => {
    expect(() => parseResourceInput('deployments', 'spec: [unclosed')).toThrow(
      /^input\.resource is not valid YAML \(.+\): give one ModelDeployment object$/,
    );
    expect(() => parseResourceInput('stacks', '- a\n- b')).toThrow(
      /input\.resource must be one LlamaStackDistribution object/,
    );
    expect(() => parseResourceInput('stacks', 'a: 1\n---\nb: 2')).toThrow(
      /input\.resource is not valid YAML/,
    );
  });

  it('fills metadata.namespace from input.namespace and refuses a different one', () => {
    expect(withNamespace({ metadata: { name: 'x' } }, 'team-a')).toEqual({
      metadata: { name: 'x', namespace: 'team-a' },
    });
    expect(withNamespace({}, 'team-a')).toEqual({
      metadata: { namespace: 'team-a' },
    });
    expect(() =>
      withNamespace({ metadata: { namespace: 'team-b' } }, 'team-a'),
    ).toThrow(
      'input.resource metadata.namespace "team-b" differs from input.namespace "team-a": remove metadata.namespace from the resource or make them equal',
    );
  });

  it('turns validation errors into one message under input.resource, ignoring warnings', () => {
    expect(
      invalidResourceError('deployments', [
        { path: 'spec.x', message: 'advice', severity: 'warning' },
      ]),
    ).toBeUndefined();
    const error = invalidResourceError('deployments', [
      { path: 'spec.engine.type', message: 'set an engine', severity: 'error' },
      {
        path: '(root)',
        message: 'the body must be an object',
        severity: 'error',
      },
    ]);
    expect(error?.message).toBe(
      'input.resource is not a valid ModelDeployment: spec.engine.type: set an engine; the body must be an object',
    );
  });

  it('names input.cluster and input.namespace outside the configuration', () => {
    const clusters = [
      { name: 'dev', title: 'Dev' },
      { name: 'prod', title: 'Prod', namespaces: ['team-a'] },
    ];
    expect(() => checkTarget(clusters, 'dev', 'anything')).not.toThrow();
    expect(() => checkTarget(clusters, 'prod', 'team-a')).not.toThrow();
    expect(() => checkTarget(clusters, 'prod', 'team-b')).toThrow(
      /^input\.namespace "team-b" is not open to the portal in cluster "prod": use one of team-a/,
    );
    expect(() => checkTarget(clusters, 'lab', 'team-a')).toThrow(
      'input.cluster "lab" is not a configured cluster: use one of dev, prod',
    );
  });

  it('links each kind to its detail page', () => {
    expect(portalLink('deployments', 'gpu east', 'team-a', 'llama')).toBe(
      '/runway/deployments/gpu%20east/team-a/llama',
    );
    expect(portalLink('models', 'dev', 'team-a', 'm')).toBe(
      '/runway/models/dev/team-a/m',
    );
    expect(portalLink('stacks', 'dev', 'team-a', 's')).toBe(
      '/runway/stacks/dev/team-a/s',
    );
  });
});
