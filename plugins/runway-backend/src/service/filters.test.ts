import { InputError } from '@backstage/errors';
import { ENTITY_REF_ANNOTATION } from '@runway-portal/plugin-runway-node';
import {
  matchesFilter,
  normaliseEntityRef,
  parseListFilter,
  sortListed,
} from './filters';

const obj = (
  namespace: string,
  name: string,
  labels: Record<string, string> = {},
  owner?: string,
) => ({
  metadata: {
    namespace,
    name,
    labels,
    ...(owner ? { annotations: { [ENTITY_REF_ANNOTATION]: owner } } : {}),
  },
});

describe('list filters', () => {
  it('filters by namespace, labels and owning entity', () => {
    const filter = parseListFilter({
      namespace: 'team-a',
      labelSelector: 'app=chat',
      entityRef: 'component:chatbot',
    });
    expect(
      matchesFilter(
        obj('team-a', 'x', { app: 'chat' }, 'Component:default/chatbot'),
        filter,
      ),
    ).toBe(true);
    expect(
      matchesFilter(
        obj('team-b', 'x', { app: 'chat' }, 'component:default/chatbot'),
        filter,
      ),
    ).toBe(false);
    expect(
      matchesFilter(
        obj('team-a', 'x', { app: 'other' }, 'component:default/chatbot'),
        filter,
      ),
    ).toBe(false);
    expect(
      matchesFilter(
        obj('team-a', 'x', { app: 'chat' }, 'component:default/other'),
        filter,
      ),
    ).toBe(false);
    expect(matchesFilter(obj('team-a', 'x', { app: 'chat' }), filter)).toBe(
      false,
    );
    expect(matchesFilter(obj('any', 'x'), parseListFilter({}))).toBe(true);
  });

  it('names the bad parameter', () => {
    expect(() => parseListFilter({ labelSelector: 'a in ()' })).toThrow(
      InputError,
    );
    expect(() => parseListFilter({ labelSelector: 'a in ()' })).toThrow(
      /^labelSelector: /,
    );
    expect(() => parseListFilter({ entityRef: '' })).toThrow(
      /entityRef "" is not an entity reference/,
    );
    expect(normaliseEntityRef('chatbot')).toBe('component:default/chatbot');
  });

  it('sorts by cluster, namespace and name', () => {
    const items = [
      { cluster: 'west', object: obj('a', 'x') },
      { cluster: 'east', object: obj('b', 'a') },
      { cluster: 'east', object: obj('a', 'z') },
      { cluster: 'east', object: obj('a', 'b') },
    ];
    expect(
      sortListed(items).map(
        i =>
          `${i.cluster}/${i.object.metadata?.namespace}/${i.object.metadata?.name}`,
      ),
    ).toEqual(['east/a/b', 'east/a/z', 'east/b/a', 'west/a/x']);
  });
});
