import { describe, expect, it } from 'vitest';
import { LookupCache } from '../../../domain/security/lookupCache';

const TTL = 1_000;
const loader = (values: Array<string | undefined>) => {
  let calls = 0;
  return { load: async () => values[calls++], calls: () => calls };
};

describe('LookupCache', () => {
  it('keeps found and not-found answers for its TTL once live', async () => {
    const cache = new LookupCache<string>(TTL);
    cache.setLive(true);
    const found = loader(['key-a', 'key-a2']);
    expect(await cache.lookup('a', 0, found.load)).toBe('key-a');
    expect(await cache.lookup('a', TTL - 1, found.load)).toBe('key-a');
    expect(found.calls()).toBe(1);
    expect(await cache.lookup('a', TTL, found.load)).toBe('key-a2');
    const missing = loader([undefined, 'created']);
    expect(await cache.lookup('b', 0, missing.load)).toBeUndefined();
    expect(await cache.lookup('b', 1, missing.load)).toBeUndefined();
    expect(missing.calls()).toBe(1);
  });

  it('keeps nothing until live, and drops everything when live changes', async () => {
    const cache = new LookupCache<string>(TTL);
    const counted = loader(['1', '2', '3', '4']);
    await cache.lookup('a', 0, counted.load);
    await cache.lookup('a', 0, counted.load);
    expect(counted.calls()).toBe(2);
    cache.setLive(true);
    await cache.lookup('a', 0, counted.load);
    cache.setLive(true);
    expect(await cache.lookup('a', 0, counted.load)).toBe('4');
  });

  it('drops an invalidated key at once, and only that key', async () => {
    const cache = new LookupCache<string>(TTL);
    cache.setLive(true);
    const a = loader(['old', 'new']);
    const b = loader(['b']);
    await cache.lookup('a', 0, a.load);
    await cache.lookup('b', 0, b.load);
    cache.invalidate('a');
    expect(await cache.lookup('a', 1, a.load)).toBe('new');
    await cache.lookup('b', 1, b.load);
    expect(b.calls()).toBe(1);
  });

  it('answers but does not keep a load that an invalidation overtook', async () => {
    const cache = new LookupCache<string>(TTL);
    cache.setLive(true);
    let release: (value: string) => void = () => undefined;
    const slow = cache.lookup('a', 0, () => new Promise<string>((resolve) => (release = resolve)));
    cache.invalidate('a');
    release('read before the change');
    expect(await slow).toBe('read before the change');
    expect(await cache.lookup('a', 1, async () => 'read after it')).toBe('read after it');
  });

  it('shares one load between concurrent misses of a key', async () => {
    const cache = new LookupCache<string>(TTL);
    cache.setLive(true);
    const counted = loader(['once']);
    const answers = await Promise.all([1, 2, 3].map(() => cache.lookup('a', 0, counted.load)));
    expect(answers).toEqual(['once', 'once', 'once']);
    expect(counted.calls()).toBe(1);
  });

  it('holds at most its capacity, evicting the entry stored longest ago', async () => {
    const cache = new LookupCache<string>(TTL, 2);
    cache.setLive(true);
    const counted = loader(['a', 'b', 'c', 'a again']);
    for (const key of ['a', 'b', 'c']) await cache.lookup(key, 0, counted.load);
    expect(await cache.lookup('a', 0, counted.load)).toBe('a again');
    expect(counted.calls()).toBe(4);
  });
});
