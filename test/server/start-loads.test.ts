/**
 * `serve` reads only the modules its options need before its first answer (issue 21: start-up): the
 * Redis client, the proxy, the webhook sender, --watch and verify's judge are loaded when their
 * option is given, not at every start. Real processes: the built CLI, with a module-recording probe.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../support/peer-load.js';
import { send, VALID_HEADERS } from '../support/server.js';

const MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));
const PROBE = fileURLToPath(new URL('../support/loaded-modules.mjs', import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'start-loads-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** What `serve <args>` loaded by the time it answered one POST /plants, and that answer's status. */
async function loadedBy(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
  then: (url: string) => Promise<void> = async () => undefined,
): Promise<{ modules: string[]; files: string[]; status: number }> {
  const file = join(folder, `${args.length}-${Date.now()}.txt`);
  const child = spawn(process.execPath, ['--import', PROBE, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', ...args], {
    env: { ...process.env, LOADED_MODULES_FILE: file, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let status = 0;
  try {
    let printed = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start; it printed:\n${printed}`)), 30_000);
      const onOutput = (chunk: Buffer) => {
        printed += chunk.toString();
        const match = /listening on (http:\/\/\S+)/.exec(printed);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', onOutput);
      child.stderr.on('data', onOutput);
    });
    status = (await send(`${url}/plants`, { method: 'POST', headers: VALID_HEADERS, body: '{"name":"probe","id":1}' })).status;
    await then(url);
  } finally {
    await stopProcess(child);
  }
  const files = readFileSync(file, 'utf8').split('\n');
  return { modules: files.flatMap(bundled), files, status };
}

/**
 * A loaded file, or the modules a bundled one holds: the CLI's serve is bundled (scripts/bundle-cli.mjs),
 * and the bundler names each module it put in a file on a line of its own ("// dist/src/http/site.js").
 */
function bundled(loaded: string): string[] {
  if (!/\/dist\/src\/cli\/(main\.js|chunks\/)/.test(loaded)) return [loaded];
  const text = readFileSync(loaded.startsWith('file:') ? fileURLToPath(loaded) : loaded, 'utf8');
  return [loaded, ...[...text.matchAll(/^\/\/ (dist\/src\/\S+\.js)$/gm)].map(([, module]) => module as string)];
}

/** The control API's site: built at its first request. */
const CONTROL = ['dist/src/server/control-site.js', 'dist/src/control/bind-control.js'];
const controlOf = (modules: readonly string[]) => CONTROL.filter((part) => modules.some((module) => module.includes(part)));

const OPTIONAL = [
  'node_modules/ioredis/',
  'dist/src/proxy/forward.js',
  'dist/src/webhooks/sender.js',
  'dist/src/server/reload.js',
  'dist/src/core/conformance/judge.js',
];
const loadedOf = (modules: readonly string[]) => OPTIONAL.filter((part) => modules.some((module) => module.includes(part)));
const FAST_CHECK = 'node_modules/fast-check/';
/** Twilio's sids: `^WS[0-9a-fA-F]{32}$`, which no plain number keeps. */
const TWILIO = fileURLToPath(new URL('../fixtures/documents/twilio-taskrouter-workspaces.json', import.meta.url));

describe('serve loads a feature only when asked for', () => {
  it('a plain start answers its first request without the Redis client, the proxy, webhooks, --watch or the judge', { timeout: 60_000 }, async () => {
    const { modules, status } = await loadedBy([], { PLANTSTORE_CACHE_DIR: 'off' });
    expect(status).toBe(200);
    // The probe saw the start itself, and the first request's validation (Ajv, CommonJS).
    expect(modules.some((module) => module.includes('node_modules/ajv/dist/core.js'))).toBe(true);
    expect(modules.some((module) => module.includes('dist/src/server/start-server.js'))).toBe(true);
    expect(loadedOf(modules)).toEqual([]);
    expect(controlOf(modules)).toEqual([]);
    // fast-check draws a server-made id only for a pattern the plain number does not keep (handlers/resource/string-key.ts).
    expect(modules.filter((module) => module.includes(FAST_CHECK))).toEqual([]);
  });

  it('loads fast-check at the first create of an id whose pattern the plain number does not keep, not at the start', { timeout: 60_000 }, async () => {
    const args = ['--spec', TWILIO];
    const started = await loadedBy(args);
    expect(started.modules.filter((module) => module.includes(FAST_CHECK))).toEqual([]);
    let created = 0;
    const drawn = await loadedBy(args, {}, async (url) => {
      const basic = `Basic ${Buffer.from('user:secret').toString('base64')}`;
      const headers = { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' };
      created = (await send(`${url}/v1/Workspaces`, { method: 'POST', headers, body: 'FriendlyName=probe' })).status;
    });
    expect(created).toBe(201);
    expect(drawn.modules.some((module) => module.includes(FAST_CHECK))).toBe(true);
  });

  it('a start reads its own code from a few bundled files, not one file per module', { timeout: 60_000 }, async () => {
    const { modules, files, status } = await loadedBy([]);
    expect(status).toBe(200);
    const ours = (names: readonly string[]) => new Set(names.filter((name) => /dist\/src\//.test(name))).size;
    // Each ES module costs a resolution, a read and a link: ~150 files at 0543a84, a third of a start's CPU.
    expect(ours(files)).toBeLessThanOrEqual(30);
    expect(ours(modules)).toBeGreaterThan(100);
  });

  it('the control API is loaded at its first request, and answers it', { timeout: 60_000 }, async () => {
    let health = 0;
    const { modules } = await loadedBy([], {}, async (url) => {
      health = (await send(`${url}/__control/health`)).status;
    });
    expect(health).toBe(200);
    expect(controlOf(modules)).toEqual(CONTROL);
  });

  it('loads in its first lull what a first refusal would wait on (prism’s error wording), not before its first answer', { timeout: 60_000 }, async () => {
    // prism's error wording (core/prism/adapter.ts loads it), as the loaded file's path ends.
    const WORDING = 'prism-http/dist/validator/validators/utils.js';
    const quick = await loadedBy([]);
    expect(quick.status).toBe(200);
    expect(quick.modules.some((module) => module.includes(WORDING))).toBe(false);
    const idle = await loadedBy([], {}, () => new Promise((resolve) => setTimeout(resolve, 1_500)));
    expect(idle.modules.some((module) => module.includes(WORDING))).toBe(true);
  });

  it('each is loaded when its option is given (the probe sees modules loaded on demand)', { timeout: 60_000 }, async () => {
    const { modules } = await loadedBy(['--proxy', 'http://127.0.0.1:9', '--webhook', 'http://127.0.0.1:9/hooks', '--watch']);
    expect(loadedOf(modules)).toEqual(OPTIONAL.filter((part) => part !== 'node_modules/ioredis/'));
  });
});

/** Ajv's compiler: its core, its code generation and its meta-schemas (what a cached validator needs none of). */
const AJV_COMPILER = ['node_modules/ajv/dist/core.js', 'node_modules/ajv/dist/compile/', 'node_modules/ajv/dist/refs/'];
const NOT_AT_WARM_START = ['node_modules/lossless-json/', 'node_modules/@stoplight/types/'];
const compilerOf = (modules: readonly string[]) => AJV_COMPILER.filter((part) => modules.some((module) => module.includes(part)));

describe('a start with its validators cached', () => {
  it("answers its first request without loading Ajv's compiler (core/prism/validator-cache.ts)", { timeout: 60_000 }, async () => {
    const env = { PLANTSTORE_CACHE_DIR: join(folder, 'cache') };
    const cold = await loadedBy([], env);
    expect(cold.status).toBe(200);
    expect(compilerOf(cold.modules)).toEqual(AJV_COMPILER);
    const warm = await loadedBy([], env);
    expect(warm.status).toBe(200);
    expect(compilerOf(warm.modules)).toEqual([]);
    // It still judged the body with Ajv's code: the generated code requires its formats.
    expect(warm.modules.some((module) => module.includes('node_modules/ajv-formats/dist/formats.js'))).toBe(true);
    // Nor lossless-json (a body JSON.parse reads exactly needs none) nor @stoplight/types (types, and one enum): 11–15 and ~5 ms.
    expect(NOT_AT_WARM_START.filter((part) => warm.modules.some((module) => module.includes(part)))).toEqual([]);
  });
});
