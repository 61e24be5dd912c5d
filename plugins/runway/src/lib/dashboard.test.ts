import { freshness } from '../__testUtils__/fixtures';
import { kindsOf, oldestFreshness, tabOf, uniqueErrors } from './dashboard';

describe('dashboard tabs', () => {
  it('reads the tab from ?kind=, deployments when absent or unknown', () => {
    expect(tabOf(null)).toBe('deployments');
    expect(tabOf('models')).toBe('models');
    expect(tabOf('stacks')).toBe('stacks');
    expect(tabOf('all')).toBe('all');
    expect(tabOf('pods')).toBe('deployments');
    expect(kindsOf('all')).toEqual(['deployments', 'models', 'stacks']);
    expect(kindsOf('models')).toEqual(['models']);
  });

  it('names each cluster error once per reason', () => {
    const down = {
      cluster: 'west',
      reason: 'Unreachable' as const,
      message: 'refused',
    };
    expect(
      uniqueErrors(
        [down],
        [down, { ...down, reason: 'Forbidden' as const }],
        undefined,
      ),
    ).toEqual([down, { ...down, reason: 'Forbidden' }]);
  });

  it('keeps the oldest data age of a cluster across lists', () => {
    const east = freshness('east');
    const eastOlder = freshness('east', { dataAgeMs: 5000 });
    const west = freshness('west', { synced: false, dataAgeMs: null });
    expect(oldestFreshness([east], [eastOlder], [west])).toEqual([
      eastOlder,
      west,
    ]);
  });
});
