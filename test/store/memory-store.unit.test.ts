/** The in-memory item store: keys of both kinds, atomic updates, paging with skip and filters. */
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/memory-store.js';

describe('the in-memory item store', () => {
  it('keeps the keys 1n and "1" apart', async () => {
    const { store } = createMemoryStore();
    expect((await store.create({ id: 1n, fields: { id: 1 } })).ok).toBe(true);
    expect((await store.create({ id: '1', fields: { id: '1' } })).ok).toBe(true);
    expect(await store.count()).toBe(2);
    expect(await store.delete('1')).toBe(true);
    expect(await store.get(1n)).toEqual({ id: 1n, fields: { id: 1 } });
  });

  it('keeps neighbouring keys apart on both sides of 2^53 and at the ends of int64 (safe ones are held as numbers)', async () => {
    const { store } = createMemoryStore();
    const keys = [2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) + 1n, -(2n ** 53n), 2n ** 63n - 1n, -(2n ** 63n), 0n];
    for (const id of keys) expect((await store.create({ id, fields: { id: String(id) } })).ok).toBe(true);
    expect((await store.create({ id: String(2n ** 53n - 1n), fields: {} })).ok).toBe(true);
    for (const id of keys) expect((await store.create({ id, fields: {} })).ok).toBe(false);
    for (const id of keys) expect((await store.get(id))?.fields.id).toBe(String(id));
    expect(await store.delete(2n ** 53n - 1n)).toBe(true);
    expect(await store.get(2n ** 53n - 1n)).toBeUndefined();
    expect(await store.get(String(2n ** 53n - 1n))).toBeDefined();
    expect(await store.count()).toBe(keys.length);
  });

  it('applies concurrent updates one after the other, each to the result of the last', async () => {
    let writes = 0;
    const { store } = createMemoryStore({ sink: () => new Promise((resolve) => setTimeout(() => resolve(void (writes += 1)), 5)) });
    await store.create({ id: 'n', fields: { count: 0 } });
    const bump = () => store.update('n', (item) => ({ id: item.id, fields: { count: (item.fields.count as number) + 1 } }));
    await Promise.all(Array.from({ length: 10 }, bump));
    expect((await store.get('n'))?.fields.count).toBe(10);
    expect(writes).toBe(11);
    await expect(store.update('n', () => ({ id: 'other', fields: {} }))).rejects.toThrow(/must keep its key/);
  });

  it('pages with skip and filters, integers compared exactly whatever their form', async () => {
    const { store } = createMemoryStore();
    for (let i = 1; i <= 6; i += 1)
      await store.create({ id: BigInt(i), fields: { id: i, tag: i % 2 === 0 ? 'even' : 'odd', size: i === 6 ? 9007199254740993n : i } });
    expect((await store.list({ limit: 2, skip: 1, where: { tag: 'even' } })).items.map((item) => item.id)).toEqual([4n, 6n]);
    expect((await store.list({ limit: 10, where: { size: 9007199254740993n } })).items.map((item) => item.id)).toEqual([6n]);
    expect((await store.list({ limit: 10, where: { size: 3n } })).items.map((item) => item.id)).toEqual([3n]);
    const first = await store.list({ limit: 2 });
    expect(first.items.map((item) => item.id)).toEqual([1n, 2n]);
    expect((await store.list({ limit: 2, cursor: first.next })).items.map((item) => item.id)).toEqual([3n, 4n]);
  });

  it('allocates 1, 2, 3… and goes on after a reset; a seed moves it past its integer keys', async () => {
    const { store } = createMemoryStore();
    expect([await store.allocate(), await store.allocate()]).toEqual([1n, 2n]);
    await store.reset();
    expect(await store.allocate()).toBe(3n);
    await store.seed([
      { id: 'x', fields: {} },
      { id: 10n, fields: {} },
    ]);
    expect(await store.allocate()).toBe(11n);
  });
});
