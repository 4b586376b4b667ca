/**
 * The tests' MONITOR reader (monitor.ts) on a busy Redis, where ioredis's `monitor()` throws
 * "Command queue state error" (CI, sessions.test.ts): every start sees the commands run after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandOf, monitorRedis } from './monitor.js';
import { startRedis, type TestRedis } from './redis-server.js';

describe('the MONITOR reader', { timeout: 30_000 }, () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('starts cleanly, again and again, while another client keeps Redis busy', async () => {
    const { Redis } = await import('ioredis');
    const busy = new Redis(redis.url);
    const probe = new Redis(redis.url);
    let stop = false;
    // Busy, not hogging: a burst every two milliseconds keeps commands arriving without taking a core
    // from the tests that run beside this one.
    const load = (async () => {
      while (!stop) {
        await Promise.all(Array.from({ length: 10 }, (_, field) => busy.hget('busy', String(field))));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    try {
      for (let round = 0; round < 10; round += 1) {
        const marker = `marker-${round}`;
        let markerSeen: () => void = () => {};
        const arrived = new Promise<void>((resolve) => (markerSeen = resolve));
        let busySeen = 0;
        const monitor = await monitorRedis(redis.url, ([name, key]) => {
          if (name === 'hget' && key === 'busy') busySeen += 1;
          if (name === 'echo' && key === marker) markerSeen();
        });
        // A command of the busy client run after the start: seen, in the order Redis ran them.
        await busy.hget('busy', 'after-start');
        await probe.echo(marker);
        await arrived;
        monitor.stop();
        expect(busySeen).toBeGreaterThan(0);
      }
    } finally {
      stop = true;
      await load;
      busy.disconnect();
      probe.disconnect();
    }
  });

  it('reads the words as Redis escapes them', () => {
    expect(commandOf('+1795793431.027757 [0 127.0.0.1:47750] "HGET" "ps:{issued-tokens}:users" "a\\"b\\\\c\\x00\\n"')).toEqual([
      'hget',
      'ps:{issued-tokens}:users',
      'a"b\\c\x00\n',
    ]);
    expect(commandOf('+1795793431.027806 [0 127.0.0.1:47750] "exec"')).toEqual(['exec']);
  });
});
