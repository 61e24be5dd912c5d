import newSystemPlugin from './alpha';
import { EntityRunwayCard, EntityRunwayContent, runwayPlugin, RunwayPage } from './index';

describe('runway plugin', () => {
  it('offers the page (with its nav item), the API and the entity tab and card to the new frontend system', () => {
    expect(newSystemPlugin.id).toBe('runway');
    for (const id of ['api:runway', 'page:runway', 'entity-content:runway/runway', 'entity-card:runway/runway']) {
      expect(newSystemPlugin.getExtension(id as any)).toBeDefined();
    }
  });

  it('offers the legacy frontend system a plugin with the same API and routable page', () => {
    expect(runwayPlugin.getId()).toBe('runway');
    expect([...runwayPlugin.getApis()].map(f => f.api.id)).toEqual(['plugin.runway.service']);
    expect(runwayPlugin.routes.root).toBeDefined();
    for (const extension of [RunwayPage, EntityRunwayContent, EntityRunwayCard]) expect(typeof extension).toBe('function');
  });
});
