/**
 * The password in a --store URL never reaches the banner, a log line, health or an answer, in
 * clear: not at start, not while Redis is away, not when it refuses the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exited, spawnServe, type ServeProcess } from '../persistence/cli-server.js';
import { startRedis, type TestRedis } from './redis-server.js';

const PASSWORD = 'pa55-word-never-shown';
const MAIN = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

describe('the Redis password', { timeout: 60_000 }, () => {
  let redis: TestRedis;
  let server: ServeProcess | undefined;

  beforeAll(async () => {
    redis = await startRedis(PASSWORD);
  });

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    if (server) await exited(server.child);
    await redis?.stop();
  });

  it('is shown as *** in the banner, never in health, a 503 or the log while Redis is away', async () => {
    const url = `redis://:${PASSWORD}@127.0.0.1:${redis.port}`;
    server = await spawnServe(['--store', url, '--log-level', 'info'], 20_000);
    const created = await fetch(`${server.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id": 1, "name": "a"}',
    });
    expect(created.status).toBe(200);
    const health = await (await fetch(`${server.url}/__control/health`)).text();
    await redis.kill();
    const refused = await fetch(`${server.url}/plants`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"id": 2, "name": "b"}',
    });
    const refusal = await refused.text();
    expect(refused.status).toBe(503);
    await redis.restart();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const output = server.output();
    expect(output).toContain(`redis://:***@127.0.0.1:${redis.port}`);
    expect(output).toContain('is unreachable');
    for (const text of [output, health, refusal]) expect(text).not.toContain(PASSWORD);
    expect(refusal).toContain('did not answer');
  });

  it('refused by Redis stops the start with a message that does not hold it', async () => {
    const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0', '--store', `redis://:wrong-${PASSWORD}@127.0.0.1:${redis.port}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    expect(await exited(child)).toBe(2);
    expect(printed).toContain('cannot reach Redis');
    expect(printed).not.toContain(PASSWORD);
  });
});
