/**
 * Lulls (src/server/quiet.ts): work that waits for one (compiling validators, loading prism's mocker
 * after a start) must not run while a request is in flight, nor before the quiet time has passed
 * since the last one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { inLulls, lullsOf } from '../../src/server/quiet.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A loopback server that answers after `delayMs`; `arrived` resolves at its first request. */
async function slowServer(delayMs: number): Promise<{ server: Server; url: string; arrived: Promise<void>; ended: Promise<number> }> {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let end = (_at: number) => {};
  const ended = new Promise<number>((resolve) => (end = resolve));
  const created = createServer((_request, response) => {
    arrive();
    response.once('close', () => end(performance.now()));
    setTimeout(() => response.end('ok'), delayMs);
  });
  await new Promise<void>((resolve) => created.listen(0, '127.0.0.1', resolve));
  return { server: created, url: `http://127.0.0.1:${(created.address() as AddressInfo).port}/`, arrived, ended };
}

describe('lulls in a server', () => {
  it('waits for the request in flight to end, then for the quiet time', async () => {
    const slow = await slowServer(400);
    server = slow.server;
    const lulls = lullsOf(slow.server, 100);
    const answered = fetch(slow.url).then((answer) => answer.text());
    // The request is in flight before the idle wait starts, and the quiet time since listening is over.
    await slow.arrived;
    await new Promise((resolve) => setTimeout(resolve, 150));
    await lulls.idle();
    const idleAt = performance.now();
    // The server saw its answer end before the lull began, by the quiet time.
    expect(idleAt).toBeGreaterThanOrEqual((await slow.ended) + 100);
    expect(await answered).toBe('ok');
    lulls.stop();
  });

  it('counts listening as activity, and stops watching when told', async () => {
    const slow = await slowServer(0);
    server = slow.server;
    const started = performance.now();
    const lulls = lullsOf(slow.server, 150);
    await lulls.idle();
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(slow.server.listenerCount('request')).toBe(2);
    lulls.stop();
    expect(slow.server.listenerCount('request')).toBe(1);
    const before = performance.now();
    await lulls.idle();
    expect(performance.now() - before).toBeLessThan(50);
  });

  it('runs work a step per lull: each step waits for its own', async () => {
    const done: number[] = [];
    const lullsAsked: Array<() => void> = [];
    // A lull that comes only when the test says: a step must not run before its lull.
    const idle = () => new Promise<void>((resolve) => lullsAsked.push(resolve));
    const running = inLulls(
      idle,
      [0, 1, 2].map((index) => () => void done.push(index)),
    );
    for (const expected of [[], [0], [0, 1]]) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(done).toEqual(expected);
      lullsAsked.shift()?.();
    }
    await running;
    expect(done).toEqual([0, 1, 2]);
  });

  it('stops when told the work is no longer wanted, and a step that throws does not end the rest', async () => {
    const done: string[] = [];
    let wanted = true;
    const steps = [
      () => {
        throw new Error('a schema Ajv refuses: the first request answers it');
      },
      () => void done.push('second'),
      () => {
        done.push('third');
        wanted = false;
      },
      () => void done.push('fourth'),
    ];
    await inLulls(
      async () => undefined,
      steps,
      () => wanted,
    );
    expect(done).toEqual(['second', 'third']);
  });
});
