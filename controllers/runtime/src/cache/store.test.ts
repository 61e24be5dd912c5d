import type { KubeObject } from '../kube/types';
import {
  byLabelIndexer,
  byOwnerIndexer,
  byOwnerUidIndexer,
  controllerOf,
  labelIndexName,
  OWNER_INDEX,
  OWNER_UID_INDEX,
  ownerIndexValue,
} from './indexers';
import { newerResourceVersion, Store, WRITTEN_TTL_MS } from './store';
import { selectorsAdmit } from './selectors';
import { stripManagedFields } from './transform';

function cm(
  name: string,
  rv: string,
  extra: Partial<KubeObject['metadata']> = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'ns', resourceVersion: rv, ...extra },
  };
}

const owner = {
  apiVersion: 'airunway.ai/v1alpha1',
  kind: 'ModelDeployment',
  name: 'md',
  uid: 'u1',
  controller: true,
};

describe('Store', () => {
  it('keeps owner, label and custom indexes up to date on upsert and delete', () => {
    const store = new Store<KubeObject>();
    store.addIndexer(OWNER_INDEX, byOwnerIndexer);
    store.addIndexer(OWNER_UID_INDEX, byOwnerUidIndexer);
    store.addIndexer(labelIndexName('app'), byLabelIndexer('app'));
    store.addIndexer('name-length', o => [String(o.metadata?.name?.length)]);

    store.upsert(
      cm('a', '1', { ownerReferences: [owner], labels: { app: 'x' } }),
    );
    store.upsert(cm('bb', '2', { labels: { app: 'x' } }));
    const ownerValue = ownerIndexValue(owner, 'ns');
    expect(ownerValue).toBe('airunway.ai/ModelDeployment/ns/md');
    expect(
      store.byIndex(OWNER_INDEX, ownerValue).map(o => o.metadata?.name),
    ).toEqual(['a']);
    expect(store.byIndex(OWNER_UID_INDEX, 'u1')).toHaveLength(1);
    expect(store.byIndex(labelIndexName('app'), 'x')).toHaveLength(2);
    expect(
      store.byIndex('name-length', '2').map(o => o.metadata?.name),
    ).toEqual(['bb']);

    // The label changes: the old index entry must go.
    store.upsert(cm('a', '3', { labels: { app: 'y' } }));
    expect(
      store.byIndex(labelIndexName('app'), 'x').map(o => o.metadata?.name),
    ).toEqual(['bb']);
    expect(store.byIndex(OWNER_INDEX, ownerValue)).toEqual([]);

    store.delete('ns/bb');
    expect(store.byIndex(labelIndexName('app'), 'x')).toEqual([]);
    expect(store.get('ns/bb')).toBeUndefined();
    expect(store.size).toBe(1);
  });

  it('indexes existing objects when an indexer is added late', () => {
    const store = new Store<KubeObject>();
    store.upsert(cm('a', '1', { labels: { tier: 'gpu' } }));
    store.addIndexer('tier', byLabelIndexer('tier'));
    expect(store.byIndex('tier', 'gpu')).toHaveLength(1);
  });

  it('names the missing index and refuses duplicate indexer names', () => {
    const store = new Store<KubeObject>();
    expect(() => store.byIndex('nope', 'x')).toThrow(/no indexer named "nope"/);
    store.addIndexer('i', () => []);
    expect(() => store.addIndexer('i', () => ['other'])).toThrow(
      /already exists/,
    );
  });

  it('survives an indexer that throws', () => {
    const store = new Store<KubeObject>();
    store.addIndexer('bad', () => {
      throw new Error('x');
    });
    store.upsert(cm('a', '1'));
    expect(store.get('ns/a')).toBeDefined();
  });

  it('replace reports added, updated (only when resourceVersion changed) and deleted', () => {
    const store = new Store<KubeObject>();
    store.upsert(cm('same', '1'));
    store.upsert(cm('changed', '1'));
    store.upsert(cm('gone', '1'));
    const diff = store.replace([
      cm('same', '1'),
      cm('changed', '2'),
      cm('new', '1'),
    ]);
    expect(diff.added.map(o => o.metadata?.name)).toEqual(['new']);
    expect(
      diff.updated.map(u => [
        u.old.metadata?.resourceVersion,
        u.obj.metadata?.resourceVersion,
      ]),
    ).toEqual([['1', '2']]);
    expect(diff.deleted.map(o => o.metadata?.name)).toEqual(['gone']);
    expect(store.keys().sort()).toEqual(['ns/changed', 'ns/new', 'ns/same']);
  });
});

describe('stripManagedFields', () => {
  it('drops managedFields without touching the input', () => {
    const input = cm('a', '1', { managedFields: [{ manager: 'x' }] });
    const out = stripManagedFields(input);
    expect(out.metadata).not.toHaveProperty('managedFields');
    expect(out.metadata?.name).toBe('a');
    expect(input.metadata?.managedFields).toHaveLength(1);
    const plain = cm('b', '1');
    expect(stripManagedFields(plain)).toBe(plain);
  });
});

describe('controllerOf', () => {
  it('finds the controller owner reference', () => {
    expect(
      controllerOf(
        cm('a', '1', {
          ownerReferences: [{ ...owner, controller: false }, owner],
        }),
      ),
    ).toBe(owner);
    expect(controllerOf(cm('a', '1'))).toBeUndefined();
  });
});

describe('read-your-writes', () => {
  it('compares resourceVersions as etcd revisions, never across unknown formats', () => {
    expect(newerResourceVersion('10', '9')).toBe(true);
    expect(newerResourceVersion('9', '10')).toBe(false);
    expect(newerResourceVersion('10', '10')).toBe(false);
    expect(newerResourceVersion('12', undefined)).toBe(true);
    expect(newerResourceVersion('abc', '1')).toBe(false);
    expect(newerResourceVersion('2', 'abc')).toBe(false);
    expect(newerResourceVersion(undefined, '1')).toBe(false);
  });

  it('get answers the written object until the watch delivers that version', () => {
    const store = new Store<KubeObject>();
    store.upsert(cm('a', '5', { labels: { v: 'old' } }));
    store.noteWritten(cm('a', '7', { labels: { v: 'written' } }));
    expect(store.get('ns/a')?.metadata?.labels).toEqual({ v: 'written' });
    // Lists, indexes and event handlers keep following the watch.
    expect(store.list()[0].metadata?.labels).toEqual({ v: 'old' });
    store.upsert(cm('a', '6', { labels: { v: 'between' } }));
    expect(store.get('ns/a')?.metadata?.labels).toEqual({ v: 'written' });
    store.upsert(cm('a', '7', { labels: { v: 'watched' } }));
    expect(store.get('ns/a')?.metadata?.labels).toEqual({ v: 'watched' });
    expect(store.pendingWrites).toBe(0);
  });

  it('ignores a write older than the cache or than a pending write', () => {
    const store = new Store<KubeObject>();
    store.upsert(cm('a', '9'));
    store.noteWritten(cm('a', '8'));
    expect(store.pendingWrites).toBe(0);
    store.noteWritten(cm('a', '12', { labels: { v: '12' } }));
    store.noteWritten(cm('a', '11', { labels: { v: '11' } }));
    expect(store.get('ns/a')?.metadata?.labels).toEqual({ v: '12' });
  });

  it('serves a created object before its first watch event; a delete drops it', () => {
    const store = new Store<KubeObject>();
    store.noteWritten(cm('new', '3'));
    expect(store.get('ns/new')?.metadata?.resourceVersion).toBe('3');
    store.delete('ns/new');
    expect(store.get('ns/new')).toBeUndefined();
  });

  it('forgets a write the watch never delivers after a while', () => {
    const store = new Store<KubeObject>();
    store.noteWritten(cm('lost', '3'), Date.now() - WRITTEN_TTL_MS - 1);
    expect(store.get('ns/lost')).toBeUndefined();
    expect(store.pendingWrites).toBe(0);
  });

  it('checks plain equality selectors and says when it cannot tell', () => {
    const obj = cm('a', '1', { labels: { app: 'x', tier: 'web' } });
    expect(selectorsAdmit(obj, {})).toBe(true);
    expect(selectorsAdmit(obj, { namespace: 'other' })).toBe(false);
    expect(selectorsAdmit(obj, { labelSelector: 'app=x,tier==web' })).toBe(
      true,
    );
    expect(selectorsAdmit(obj, { labelSelector: 'app=y' })).toBe(false);
    expect(selectorsAdmit(obj, { fieldSelector: 'metadata.name=a' })).toBe(
      true,
    );
    expect(selectorsAdmit(obj, { fieldSelector: 'metadata.name=b' })).toBe(
      false,
    );
    expect(
      selectorsAdmit(obj, { labelSelector: 'app in (x,y)' }),
    ).toBeUndefined();
    expect(selectorsAdmit(obj, { labelSelector: 'app!=y' })).toBeUndefined();
    expect(
      selectorsAdmit(obj, { fieldSelector: 'status.phase=Running' }),
    ).toBeUndefined();
  });
});
