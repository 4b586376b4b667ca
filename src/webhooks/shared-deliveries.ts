/**
 * Webhook deliveries of every replica on one Redis (serve --store redis://…): each replica sends
 * the deliveries of the creates it answered (one per create, since one replica answers it), and
 * writes every change of them here, so /__control/webhooks and health on any replica show all of
 * them: the last `history` (numbered by one shared sequence, trimmed as they are added), how many
 * wait on all replicas, and how many were dropped. A replica's waiting count lives under a lease
 * it renews, so the count of a replica that was killed leaves by itself.
 */
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../store/redis/connection.js';
import type { WebhookDelivery } from './sender.js';

/** Changes on their way to Redis at once; beyond it a change is not written (and the drop logged once) rather than held. */
const MAX_WRITES = 2000;
/** A replica's waiting count counts this long after its last renewal; renewed every LEASE_MS / 3 while it waits. */
const LEASE_MS = 10_000;

/**
 * KEYS: 1 deliveries (hash key → JSON), 2 order (sorted set key by shared number), 3 sequence,
 * 4 waiting (hash replica → "count|lease end, ms"), 5 dropped.
 * ARGV: 1 key ('' to renew the lease only), 2 JSON, 3 first ('1'), 4 history, 5 replica, 6 waiting, 7 lease ms, 8 dropped ('1').
 */
const CHANGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
if ARGV[6] == '0' then redis.call('HDEL', KEYS[4], ARGV[5])
else redis.call('HSET', KEYS[4], ARGV[5], ARGV[6] .. '|' .. (now + tonumber(ARGV[7]))) end
if ARGV[8] == '1' then redis.call('INCR', KEYS[5]) end
if ARGV[1] == '' then return 0 end
if ARGV[3] == '1' then
  local n = redis.call('INCR', KEYS[3])
  local keep = tonumber(ARGV[4])
  if keep > 0 then
    redis.call('ZADD', KEYS[2], n, ARGV[1])
    redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  end
  local over = redis.call('ZCARD', KEYS[2]) - keep
  if over > 0 then
    for _, gone in ipairs(redis.call('ZRANGE', KEYS[2], 0, over - 1)) do redis.call('HDEL', KEYS[1], gone) end
    redis.call('ZREMRANGEBYRANK', KEYS[2], 0, over - 1)
  end
  return n
end
-- A later change of a delivery that has left the history does not bring it back.
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
return 0`;

/** KEYS as CHANGE's. ARGV: 1 history. → waiting, dropped, then number, JSON pairs oldest first. */
const READ = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local waiting = 0
local leases = redis.call('HGETALL', KEYS[4])
for i = 1, #leases, 2 do
  local value = leases[i + 1]
  local bar = string.find(value, '|', 1, true)
  if tonumber(string.sub(value, bar + 1)) < now then redis.call('HDEL', KEYS[4], leases[i])
  else waiting = waiting + tonumber(string.sub(value, 1, bar - 1)) end
end
local rows = {}
local keep = tonumber(ARGV[1])
if keep > 0 then
  local ids = redis.call('ZRANGE', KEYS[2], -keep, -1, 'WITHSCORES')
  for i = 1, #ids, 2 do
    rows[#rows + 1] = ids[i + 1]
    rows[#rows + 1] = redis.call('HGET', KEYS[1], ids[i]) or ''
  end
end
return {tostring(waiting), redis.call('GET', KEYS[5]) or '0', rows}`;

/** Every replica's deliveries, as /__control/webhooks shows them. */
export interface SharedDeliveryView {
  readonly deliveries: readonly WebhookDelivery[];
  readonly pending: number;
  readonly dropped: number;
}

export interface SharedDeliveries {
  /** The sender's onChange: writes the change (returns at once). */
  changed(delivery: WebhookDelivery, first: boolean, pending: number): void;
  /** Every replica's last `limit` (default: `history`) deliveries, oldest first, and the counts; throws the store's error when Redis is away. */
  read(limit?: number): Promise<SharedDeliveryView>;
  /** Waits for the changes written so far (tests, and a reader that must see its own writes). */
  synced(): Promise<void>;
  /** Stops renewing the lease. */
  close(): void;
}

export interface SharedDeliveriesOptions {
  /** The last deliveries kept and shown (--webhook-history). */
  readonly history: number;
  readonly onProblem?: (message: string) => void;
  /** How long a replica's waiting count counts after its last renewal (tests shorten it). Default 10 s. */
  readonly leaseMs?: number;
}

export function createSharedDeliveries(redis: RedisConnection, namespace: string, options: SharedDeliveriesOptions): SharedDeliveries {
  const base = `${namespace}:{webhooks}`;
  const keys = [`${base}:deliveries`, `${base}:order`, `${base}:sequence`, `${base}:waiting`, `${base}:dropped`];
  const replica = randomUUID();
  const writes = new Set<Promise<unknown>>();
  let skipped = false;
  let waiting = 0;

  const write = (args: readonly string[]) => {
    if (writes.size >= MAX_WRITES) {
      if (!skipped) options.onProblem?.(`webhooks: ${MAX_WRITES} changes are waiting for the shared store; later ones are not shown until it catches up`);
      skipped = true;
      return;
    }
    // A change that cannot be written is not shown; the delivery itself goes on.
    const written = redis.script(CHANGE, keys, args).then(
      () => (skipped = false),
      () => undefined,
    );
    writes.add(written);
    void written.finally(() => writes.delete(written));
  };
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const lease = () => [replica, String(waiting), String(leaseMs)];

  const renew = setInterval(() => {
    if (waiting > 0) write(['', '', '0', String(options.history), ...lease(), '0']);
  }, leaseMs / 3);
  renew.unref();

  return {
    changed(delivery, first, pending) {
      waiting = pending;
      const { id: _local, ...shown } = delivery;
      write([
        `${replica}:${delivery.id}`,
        JSON.stringify(shown),
        first ? '1' : '0',
        String(options.history),
        ...lease(),
        first && delivery.state === 'dropped' ? '1' : '0',
      ]);
    },
    async read(limit = options.history) {
      const [pending, dropped, rows] = (await redis.script(READ, keys, [String(Math.min(limit, options.history))])) as [string, string, string[]];
      const deliveries: WebhookDelivery[] = [];
      for (let index = 0; index < rows.length; index += 2) {
        const json = rows[index + 1];
        // One script reads both, so every number has its JSON; an empty one is skipped all the same.
        if (json) deliveries.push({ id: Number(rows[index]), ...(JSON.parse(json) as Omit<WebhookDelivery, 'id'>) });
      }
      return { deliveries, pending: Number(pending), dropped: Number(dropped) };
    },
    async synced() {
      await Promise.all([...writes]);
    },
    close: () => clearInterval(renew),
  };
}
