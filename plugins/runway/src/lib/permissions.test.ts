import { cluster } from '../__testUtils__/fixtures';
import { createTargets } from './permissions';

describe('createTargets', () => {
  it("lists every namespace of every reachable cluster's allow-list", () => {
    const east = { ...cluster('east'), namespaces: ['ml', 'team-a'] };
    const west = { ...cluster('west'), namespaces: ['ml'] };
    const down = {
      ...cluster('down'),
      reachable: false,
      namespaces: undefined,
    };
    expect(createTargets([east, west, down])).toEqual([
      { cluster: 'east', namespace: 'ml' },
      { cluster: 'east', namespace: 'team-a' },
      { cluster: 'west', namespace: 'ml' },
    ]);
  });

  it('cannot list them when a cluster serves any namespace, or no cluster is known', () => {
    expect(
      createTargets([
        { ...cluster('east'), namespaces: undefined },
        cluster('west'),
      ]),
    ).toBeUndefined();
    expect(createTargets([])).toBeUndefined();
    expect(createTargets(undefined)).toBeUndefined();
  });
});
