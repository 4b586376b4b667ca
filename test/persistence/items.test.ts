/** Items of any collection in a data dir: allocation never reused, seeds all or nothing, old logs still read. */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { openLogFile, openPlantLog, tenantLogPath } from '../../src/store/plant-log.js';
import { createResourceStores, SHARED_TENANT } from '../../src/store/tenants.js';
import { durableBacking } from '../../src/store/durable-stores.js';
import type { Item } from '../../src/store/item-store.js';
import { durableStores, idsOf, instrumentedFile, useTempDirs } from './helpers.js';

const tempDir = useTempDirs();
const BEYOND_DOUBLES = 9007199254740993n;

async function openItems(dir: string, openFile?: ReturnType<typeof instrumentedFile>['openFile']) {
  const log = await openPlantLog(dir, openFile ? { openFile } : {});
  const tenant = await createResourceStores({ backing: durableBacking(log) }).forTenant(SHARED_TENANT);
  return { log, tenant };
}

describe('items in a data dir', () => {
  it('never gives an allocated number twice: not after a reset, not after a restart, not after a failed write', async () => {
    const dir = await tempDir();
    const file = instrumentedFile();
    const first = await openItems(dir, file.openFile);
    const pets = first.tenant.collection('pets');
    expect([await pets.allocate(), await pets.allocate()]).toEqual([1n, 2n]);
    await pets.create({ id: 2n, fields: { id: 2, name: 'Rex' } });
    await pets.reset();
    file.failNext = 1;
    await expect(pets.allocate()).rejects.toThrow(/fdatasync/);
    expect(await pets.allocate()).toBe(4n);
    // Another collection has its own sequence.
    expect(await first.tenant.collection('owners.pets/7').allocate()).toBe(1n);
    await first.log.close();
    const second = await openItems(dir);
    expect(await second.tenant.collection('pets').allocate()).toBe(5n);
    expect(await second.tenant.collection('pets').count()).toBe(0);
    await second.log.close();
  });

  it('keeps fields exactly, string and integer keys apart, and replaces and updates in place across a restart', async () => {
    const dir = await tempDir();
    const first = await openItems(dir);
    const pets = first.tenant.collection('pets');
    await pets.create({ id: 1n, fields: { id: 1, name: 'int', weight: BEYOND_DOUBLES, nested: { list: [-BEYOND_DOUBLES, 1.5, null] } } });
    await pets.create({ id: '1', fields: { id: '1', name: 'string' } });
    await pets.create({ id: 3n, fields: { id: 3, name: 'third' } });
    expect(await pets.replace({ id: 3n, fields: { id: 3, name: 'replaced' } })).toEqual({ id: 3n, fields: { id: 3, name: 'replaced' } });
    expect(await pets.update('1', (item) => ({ id: item.id, fields: { ...item.fields, name: 'updated' } }))).toMatchObject({ fields: { name: 'updated' } });
    expect(await pets.replace({ id: 9n, fields: { id: 9 } })).toBeUndefined();
    await first.log.close();
    const second = await openItems(dir);
    const again = second.tenant.collection('pets');
    expect((await again.list({ limit: 10 })).items).toEqual([
      { id: 1n, fields: { id: 1, name: 'int', weight: BEYOND_DOUBLES, nested: { list: [-BEYOND_DOUBLES, 1.5, null] } } },
      { id: '1', fields: { id: '1', name: 'updated' } },
      { id: 3n, fields: { id: 3, name: 'replaced' } },
    ]);
    expect(second.tenant.collections()).toEqual(['pets']);
    await second.log.close();
  });

  it('a seed whose write fails stores none of its items, in memory or on disk', async () => {
    const dir = await tempDir();
    const file = instrumentedFile();
    const { log, tenant } = await openItems(dir, file.openFile);
    const pets = tenant.collection('pets');
    await pets.create({ id: 1n, fields: { id: 1 } });
    file.failNext = 1;
    const batch = Array.from({ length: 500 }, (_, i) => ({ id: BigInt(i + 2), fields: { id: i + 2 } }));
    await expect(pets.seed(batch)).rejects.toThrow(/fdatasync/);
    expect(await pets.count()).toBe(1);
    // The failed seed moved no allocation either (a create never does); a seed that succeeds moves it past its ids.
    expect(await pets.allocate()).toBe(1n);
    expect(
      await pets.seed([
        { id: 1n, fields: { id: 1 } },
        { id: 40n, fields: { id: 40 } },
      ]),
    ).toEqual({ created: 1, duplicates: [1n] });
    expect(await pets.allocate()).toBe(41n);
    await log.close();
    const reopened = await openItems(dir);
    expect((await reopened.tenant.collection('pets').list({ limit: 1000 })).items.map((item) => item.id)).toEqual([1n, 40n]);
    await reopened.log.close();
  });

  it('a seed that would have been split over two writes (one of its keys was busy) is still one write: a failure stores nothing', async () => {
    const dir = await tempDir();
    let last = '';
    // Fails the sync of any write holding the poisoned item.
    const openFile = async (path: string) => {
      const real = await openLogFile(path);
      return {
        ...real,
        append: async (data: Uint8Array) => {
          last = Buffer.from(data).toString('utf8');
          await real.append(data);
        },
        sync: async () => {
          if (last.includes('poison')) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
          await real.sync();
        },
      };
    };
    const { log, tenant } = await openItems(dir, openFile);
    const pets = tenant.collection('pets');
    await pets.create({ id: 5n, fields: { id: 5, name: 'old' } });
    const deleted = pets.delete(5n);
    const seeded = pets.seed([1n, 2n, 3n, 4n].map((id): Item => ({ id, fields: { id: Number(id) } })).concat([{ id: 5n, fields: { id: 5, name: 'poison' } }]));
    expect(await deleted).toBe(true);
    await expect(seeded).rejects.toThrow(/fdatasync/);
    expect(await pets.count()).toBe(0);
    await log.close();
    const reopened = await openItems(dir);
    expect(await reopened.tenant.collection('pets').count()).toBe(0);
    await reopened.log.close();
  });

  it('reads a data dir written by earlier versions (records without a collection) as its plants', async () => {
    const dir = await tempDir();
    await (await openPlantLog(dir)).close();
    const old = [
      { tenant: 'shared', kind: 'create', id: '1', name: 'Monstera', tag: 'aroid' },
      { tenant: 'shared', kind: 'create', id: BEYOND_DOUBLES.toString(), name: 'Cactus' },
      { tenant: 'shared', kind: 'create', id: '3', name: 'gone' },
      { tenant: 'shared', kind: 'delete', id: '3' },
    ];
    await writeFile(tenantLogPath(dir, SHARED_TENANT), old.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const log = await openPlantLog(dir);
    const stores = durableStores(log);
    const plants = await stores.forTenant(SHARED_TENANT);
    expect(await idsOf(plants)).toEqual([1n, BEYOND_DOUBLES]);
    expect(await plants.get(1n)).toEqual({ id: 1n, name: 'Monstera', tag: 'aroid' });
    // New records follow the old ones in the same file, and both read back.
    await plants.create({ id: 4n, name: 'new' });
    await log.close();
    const reopened = await openPlantLog(dir);
    expect(await idsOf(await durableStores(reopened).forTenant(SHARED_TENANT))).toEqual([1n, BEYOND_DOUBLES, 4n]);
    await reopened.close();
  });
});
