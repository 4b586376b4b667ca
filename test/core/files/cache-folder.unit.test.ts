/** Keeping a cache folder to its size (src/core/files/cache-folder.ts), the rule both caches use. */
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markUsed, pruneCacheFolder } from '../../../src/core/files/cache-folder.js';

let folder = '';
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'plantstore-cache-folder-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const limits = { isEntry: (name: string) => name.endsWith('.entry'), keep: 4, slack: 2 };
const seconds = Date.now() / 1000;

/** Entries e0…e(n-1), e0 the most recent, each a minute older than the one before. */
function entries(count: number): void {
  for (let index = 0; index < count; index++) {
    const file = join(folder, `e${index}.entry`);
    writeFileSync(file, '');
    utimesSync(file, seconds - 60 * index, seconds - 60 * index);
  }
}

describe('pruneCacheFolder', () => {
  it('removes no entry up to keep + slack, only stale temporary files', async () => {
    entries(6);
    writeFileSync(join(folder, 'stale.tmp'), '');
    utimesSync(join(folder, 'stale.tmp'), seconds - 120, seconds - 120);
    writeFileSync(join(folder, 'fresh.tmp'), '');
    writeFileSync(join(folder, 'other'), '');
    await pruneCacheFolder(folder, limits);
    expect(readdirSync(folder).sort()).toEqual(['e0.entry', 'e1.entry', 'e2.entry', 'e3.entry', 'e4.entry', 'e5.entry', 'fresh.tmp', 'other']);
  });

  it('past keep + slack, keeps the `keep` most recently used', async () => {
    entries(7);
    await pruneCacheFolder(folder, limits);
    expect(readdirSync(folder).sort()).toEqual(['e0.entry', 'e1.entry', 'e2.entry', 'e3.entry']);
  });
});

describe('markUsed', () => {
  it('refreshes an entry last marked over an hour ago, and leaves a recent one alone', () => {
    entries(1);
    const file = join(folder, 'e0.entry');
    const fd = openSync(file, 'r');
    try {
      utimesSync(file, seconds - 1_800, seconds - 1_800);
      markUsed(fd, statSync(file));
      expect(statSync(file).mtimeMs).toBeCloseTo((seconds - 1_800) * 1000, -3);
      utimesSync(file, seconds - 7_200, seconds - 7_200);
      markUsed(fd, statSync(file));
      expect(Math.abs(statSync(file).mtimeMs - Date.now())).toBeLessThan(5_000);
    } finally {
      closeSync(fd);
    }
  });
});
