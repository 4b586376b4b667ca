/**
 * `verify` loads of undici only the Pool it sends through (contracts/client/http-client.ts), not
 * undici's index, which loads 407 modules (fetch, WebSocket, caches, mock agents): a fifth of a
 * verify start's CPU. Real process: the built CLI, with the module-recording probe.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const PROBE = fileURLToPath(new URL('../support/loaded-modules.mjs', import.meta.url));
const SPEC = fileURLToPath(new URL('../../spec/plant-store-public.yaml', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'verify-loads-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('verify loads what it sends with, not the whole HTTP client', () => {
  it('a run loads undici’s Pool, and none of its fetch, WebSocket, cache or mock modules', { timeout: 60_000 }, () => {
    const file = join(folder, 'loaded.txt');
    const run = spawnSync(
      process.execPath,
      ['--import', PROBE, MAIN, 'verify', '--target', 'http://127.0.0.1:9', '--spec', SPEC, '--runs', '5', '--stateful', '--dry-run'],
      { env: { ...process.env, LOADED_MODULES_FILE: file }, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const undici = [...new Set(readFileSync(file, 'utf8').split('\n'))].filter((path) => path.includes('node_modules/undici/'));
    expect(undici.some((path) => path.endsWith('lib/dispatcher/pool.js'))).toBe(true);
    expect(undici.filter((path) => /\/undici\/(index\.js|lib\/(web|mock|cache|interceptor)\/)/.test(path))).toEqual([]);
    expect(undici.length).toBeLessThan(40);
  });
});
