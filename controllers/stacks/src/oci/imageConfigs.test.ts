import type { RegistryCredential } from './image';
import { ImageConfigs, LruMap, retryDelay } from './imageConfigs';
import { RegistryError, type ImageConfigRead } from './registry';

const FOUND: ImageConfigRead = {
  kind: 'found',
  digest: 'sha256:aa',
  config: 'version: 2\n',
  version: 2,
};

/** A read whose answers the test hands out one by one. */
function scriptedRead() {
  const calls: Array<{
    image: string;
    credentials: readonly RegistryCredential[];
    known: (digest: string) => ImageConfigRead | undefined;
    settle: (r: ImageConfigRead | Error) => void;
  }> = [];
  const read = (
    image: string,
    credentials: readonly RegistryCredential[],
    known: (digest: string) => ImageConfigRead | undefined,
  ) =>
    new Promise<ImageConfigRead>((resolve, reject) =>
      calls.push({
        image,
        credentials,
        known,
        settle: r => (r instanceof Error ? reject(r) : resolve(r)),
      }),
    );
  return { calls, read };
}

const noCredentials = async () => [];
const flush = () => new Promise(r => setImmediate(r));

describe('ImageConfigs', () => {
  it('answers pending at once, then the read; reads again only when the refresh is due', async () => {
    let now = 1000;
    const { calls, read } = scriptedRead();
    const configs = new ImageConfigs({
      read,
      now: () => now,
      refreshMs: 60_000,
    });
    expect(configs.lookup('img:1', 'ns/default', noCredentials)).toEqual({
      state: 'pending',
    });
    // A second lookup while the read runs starts no other read.
    configs.lookup('img:1', 'ns/default', noCredentials);
    await flush();
    expect(calls).toHaveLength(1);
    calls[0].settle(FOUND);
    await configs.settled('img:1', 'ns/default');
    expect(configs.lookup('img:1', 'ns/default', noCredentials)).toEqual({
      state: 'read',
      ...FOUND,
    });
    now += 59_000;
    configs.lookup('img:1', 'ns/default', noCredentials);
    await flush();
    expect(calls).toHaveLength(1);
    now += 2000;
    // Due: the old answer while the refresh runs (never blocks).
    expect(configs.lookup('img:1', 'ns/default', noCredentials)).toMatchObject({
      state: 'read',
    });
    await flush();
    expect(calls).toHaveLength(2);
  });

  it('retries a failure with backoff, and keeps a good answer while a refresh fails', async () => {
    let now = 0;
    const { calls, read } = scriptedRead();
    const configs = new ImageConfigs({
      read,
      now: () => now,
      refreshMs: 1000,
      firstRetryMs: 10_000,
      maxRetryMs: 40_000,
    });
    configs.lookup('img:1', 'ns/sa', noCredentials);
    await flush();
    calls[0].settle(new RegistryError('cannot reach reg: ENOTFOUND'));
    await configs.settled('img:1', 'ns/sa');
    expect(configs.lookup('img:1', 'ns/sa', noCredentials)).toEqual({
      state: 'failed',
      message: 'cannot reach reg: ENOTFOUND',
      retryInMs: 10_000,
    });
    now = 9_999;
    configs.lookup('img:1', 'ns/sa', noCredentials);
    await flush();
    expect(calls).toHaveLength(1);
    now = 10_000;
    configs.lookup('img:1', 'ns/sa', noCredentials);
    await flush();
    calls[1].settle(new RegistryError('still down'));
    await configs.settled('img:1', 'ns/sa');
    // Second failure in a row: 20 s.
    expect(configs.lookup('img:1', 'ns/sa', noCredentials)).toMatchObject({
      state: 'failed',
      message: 'still down',
      retryInMs: 20_000,
    });
    now = 30_000;
    configs.lookup('img:1', 'ns/sa', noCredentials);
    await flush();
    calls[2].settle(FOUND);
    await configs.settled('img:1', 'ns/sa');
    now = 31_000;
    configs.lookup('img:1', 'ns/sa', noCredentials);
    await flush();
    calls[3].settle(new RegistryError('down again'));
    await configs.settled('img:1', 'ns/sa');
    expect(configs.lookup('img:1', 'ns/sa', noCredentials)).toMatchObject({
      state: 'read',
      kind: 'found',
    });
  });

  it('keeps answers per requester (credentials are never shared) and configs per digest (FR-027i)', async () => {
    const { calls, read } = scriptedRead();
    const configs = new ImageConfigs({ read });
    const credentials = jest.fn(async () => [
      { host: 'reg', username: 'u', password: 'p' },
    ]);
    configs.lookup('img:1', 'team-a/puller', credentials);
    await flush();
    expect(calls[0].credentials).toEqual([
      { host: 'reg', username: 'u', password: 'p' },
    ]);
    calls[0].settle(FOUND);
    await configs.settled('img:1', 'team-a/puller');
    // Another namespace asks for itself (its own read, its own credentials)...
    expect(configs.lookup('img:1', 'team-b/default', noCredentials)).toEqual({
      state: 'pending',
    });
    await flush();
    expect(calls).toHaveLength(2);
    // ...and the read finds the digest's config already extracted.
    expect(calls[1].known('sha256:aa')).toEqual(FOUND);
    expect(calls[1].known('sha256:bb')).toBeUndefined();
    expect(credentials).toHaveBeenCalledTimes(1);
  });
});

describe('LruMap', () => {
  it('forgets the least recently used beyond its size', () => {
    const lru = new LruMap<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.get('a');
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.size).toBe(2);
  });
});

describe('retryDelay', () => {
  it('doubles from the first delay up to the max', () => {
    expect([1, 2, 3, 4, 5].map(n => retryDelay(n, 10, 50))).toEqual([
      10, 20, 40, 50, 50,
    ]);
  });
});
