import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openPlantLog } from '../../src/store/plant-log.js';
import { useTempDirs } from './helpers.js';

const tempDir = useTempDirs();

describe('data dir lock', () => {
  it('refuses a second open while the first holds the dir, naming the pid, and frees it on close', async () => {
    const dir = await tempDir();
    const first = await openPlantLog(dir);
    expect(await readFile(join(dir, '.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid}\n`));
    await expect(openPlantLog(dir)).rejects.toThrow(new RegExp(`data dir .* is in use by pid ${process.pid} \\(this process\\): lock file .*\\.lock`));
    await first.close();
    expect(existsSync(join(dir, '.lock'))).toBe(false);
    const second = await openPlantLog(dir);
    await second.close();
  });

  it('refuses a dir locked by another live process', async () => {
    const dir = await tempDir();
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await writeFile(join(dir, '.lock'), `${other.pid}\n`);
      await expect(openPlantLog(dir)).rejects.toThrow(new RegExp(`in use by pid ${other.pid}:`));
      expect(await readFile(join(dir, '.lock'), 'utf8')).toBe(`${other.pid}\n`);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a dead process or holding no pid', async () => {
    const dir = await tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    for (const stale of [`${dead}\n`, '', 'not a pid\n']) {
      await writeFile(join(dir, '.lock'), stale);
      const log = await openPlantLog(dir);
      expect(await readFile(join(dir, '.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid}\n`));
      await log.close();
    }
  });

  it.skipIf(!existsSync('/proc/sys/kernel/random/boot_id'))('takes over a lock from before a reboot even if its pid is alive now', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, '.lock'), `${process.pid}\nsome-earlier-boot\n`);
    const log = await openPlantLog(dir);
    await log.close();
  });
});
