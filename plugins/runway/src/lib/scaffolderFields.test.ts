import { cluster, clustersResponse } from '../__testUtils__/fixtures';
import {
  allowedNamespaces,
  clusterChoices,
  clusterProblem,
  namespaceProblem,
} from './scaffolderFields';

const answer = clustersResponse(
  [
    cluster('east', { title: 'East' }),
    cluster('west', { reachable: false, gpus: [] }),
    cluster('north', { namespaces: undefined, gpus: [] }),
  ],
  [{ cluster: 'west', reason: 'Timeout', message: 'no answer within 5s' }],
);

describe('scaffolder field logic', () => {
  it('lists clusters with title, free GPUs and why an unreachable one cannot be chosen', () => {
    expect(clusterChoices(answer)).toEqual([
      {
        value: 'east',
        title: 'East',
        unavailable: undefined,
        gpus: '6 free nvidia.com/gpu',
      },
      {
        value: 'west',
        title: 'west',
        unavailable: 'Timeout: no answer within 5s',
        gpus: 'no GPUs',
      },
      {
        value: 'north',
        title: 'north',
        unavailable: undefined,
        gpus: 'no GPUs',
      },
    ]);
    const unreachableWithoutError = clustersResponse([
      cluster('south', { reachable: false }),
    ]);
    expect(clusterChoices(unreachableWithoutError)[0].unavailable).toBe(
      'unreachable',
    );
    const syncing = clustersResponse(
      [cluster('east')],
      [{ cluster: 'east', reason: 'Syncing', message: 'first list' }],
    );
    expect(clusterChoices(syncing)[0].unavailable).toBeUndefined();
  });

  it('names the field and the way out for a bad cluster', () => {
    expect(clusterProblem('Cluster', 'east', answer)).toBeUndefined();
    expect(clusterProblem('Cluster', undefined, answer)).toBe(
      'Cluster: no cluster chosen; choose one of east, north',
    );
    expect(clusterProblem('Cluster', 'mars', answer)).toBe(
      'Cluster: cluster "mars" is not registered with Runway Portal; choose one of east, north',
    );
    expect(clusterProblem('Target', 'west', answer)).toBe(
      'Target: cluster "west" cannot be used now (Timeout: no answer within 5s); choose one of east, north',
    );
    expect(clusterProblem('Cluster', 'x', clustersResponse([]))).toBe(
      'Cluster: cluster "x" is not registered with Runway Portal; no registered cluster is reachable now; try again later',
    );
  });

  it("checks a namespace against the cluster's allow-list, else as a DNS label", () => {
    expect(allowedNamespaces(answer.items[0])).toEqual(['default', 'ml']);
    expect(allowedNamespaces(answer.items[2])).toBeUndefined();
    expect(namespaceProblem('Namespace', 'ml', 'east', answer)).toBeUndefined();
    expect(namespaceProblem('Namespace', 'prod', 'east', answer)).toBe(
      'Namespace: namespace "prod" is not open to the portal in cluster "east"; choose one of default, ml',
    );
    expect(namespaceProblem('Namespace', undefined, 'east', answer)).toBe(
      'Namespace: no namespace chosen; choose one of default, ml',
    );
    expect(
      namespaceProblem('Namespace', 'anything-goes', 'north', answer),
    ).toBeUndefined();
    expect(namespaceProblem('Namespace', 'Bad_NS', 'north', answer)).toMatch(
      /^Namespace: "Bad_NS" is not a valid namespace name; use at most 63 lowercase/,
    );
    expect(
      namespaceProblem('Namespace', 'a'.repeat(64), 'north', answer),
    ).toMatch(/is not a valid namespace name/);
    expect(namespaceProblem('Namespace', '', 'north', answer)).toMatch(
      /^Namespace: no namespace given; enter a namespace name/,
    );
  });
});
