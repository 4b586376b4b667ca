/**
 * The faults in force kept in the Redis that replicas share (serve --store redis://…): a fault
 * added, removed or cleared through any replica's control API reaches every replica within a
 * poll (250 ms), and a fault's `times` is used up by one script for all of them, so `times: 3`
 * shapes three requests in all, whichever replicas get them. Each replica holds a copy of the list
 * (read by the synchronous Faults methods); the control API calls `synced()` to read its own writes.
 */
import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../store/redis/connection.js';
import { createFaults, latencyOf, NONE, type Fault, type FaultPlan, type Faults, type FaultSpec } from './faults.js';

interface Held {
  readonly spec: FaultSpec;
  readonly id: string;
  readonly order: number;
  hits: number;
  remaining: number | undefined;
}

/**
 * Keys: 1 specs (hash id → "order|spec JSON"), 2 left (hash id → times remaining), 3 hits (hash
 * id → count), 4 version (bumped by every change of the list), 5 order, 6 seeded.
 * PLAN's ARGV: id, kind pairs of the faults that match, in order → id, left ('' without times) of those applied.
 */
const PLAN = `
local applied = {}
local outcome = false
for i = 1, #ARGV, 2 do
  local id, kind = ARGV[i], ARGV[i + 1]
  if redis.call('HEXISTS', KEYS[1], id) == 1 and (kind == 'latency' or not outcome) then
    local left = redis.call('HGET', KEYS[2], id)
    if not left or tonumber(left) > 0 then
      local now = ''
      if left then
        now = tostring(tonumber(left) - 1)
        if now == '0' then
          redis.call('HDEL', KEYS[1], id)
          redis.call('HDEL', KEYS[2], id)
          redis.call('HDEL', KEYS[3], id)
          redis.call('INCR', KEYS[4])
        else
          redis.call('HSET', KEYS[2], id, now)
        end
      end
      if now ~= '0' then redis.call('HINCRBY', KEYS[3], id, 1) end
      applied[#applied + 1] = id
      applied[#applied + 1] = now
      if kind ~= 'latency' then outcome = true end
    end
  end
end
return applied`;

/** ARGV: once ('1': only if the store never took its config's faults), then id, spec JSON, times ('' for none) triples. */
const ADD = `
if ARGV[1] == '1' and not redis.call('SET', KEYS[6], '1', 'NX') then return 0 end
for i = 2, #ARGV, 3 do
  local order = redis.call('INCR', KEYS[5])
  redis.call('HSET', KEYS[1], ARGV[i], order .. '|' .. ARGV[i + 1])
  if ARGV[i + 2] ~= '' then redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2]) end
end
redis.call('INCR', KEYS[4])
return 1`;

/** ARGV: the ids to remove; none: every fault. */
const REMOVE = `
if #ARGV == 0 then redis.call('DEL', KEYS[1], KEYS[2], KEYS[3]) end
for i = 1, #ARGV do
  redis.call('HDEL', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[2], ARGV[i])
  redis.call('HDEL', KEYS[3], ARGV[i])
end
redis.call('INCR', KEYS[4])
return 1`;

const READ = `return {redis.call('GET', KEYS[4]) or '0', redis.call('HGETALL', KEYS[1]), redis.call('HGETALL', KEYS[2]), redis.call('HGETALL', KEYS[3])}`;

export interface SharedFaults extends Faults {
  /** Stops polling. */
  close(): void;
}

/**
 * The shared registry. `initial` (the config's faults) is put in once per store, by the first
 * replica to start; `operations` are the names a fault may target, checked as createFaults checks them.
 */
export async function createSharedFaults(
  redis: RedisConnection,
  namespace: string,
  initial: readonly FaultSpec[],
  operations: readonly string[],
  pollMs = 250,
): Promise<SharedFaults> {
  const base = `${namespace}:faults`;
  const keys = [base, `${base}:left`, `${base}:hits`, `${base}:version`, `${base}:order`, `${base}:seeded`];
  // Checks a spec exactly as the in-process registry does (and throws the same FaultError).
  const checked = (spec: FaultSpec) => {
    const checker = createFaults([], operations);
    checker.add(spec);
  };
  createFaults(initial, operations);
  let held: Held[] = [];
  let version = '';
  const writes = new Set<Promise<unknown>>();
  let failed: unknown;

  const write = (args: readonly string[], lua: string) => {
    const written = redis.script(lua, keys, args).catch((error: unknown) => {
      failed = error;
    });
    writes.add(written);
    void written.finally(() => writes.delete(written));
  };
  const argsOf = (id: string, spec: FaultSpec) => [id, JSON.stringify(spec), spec.times === undefined ? '' : String(spec.times)];

  async function reload(): Promise<void> {
    const [now, specs, left, hits] = (await redis.script(READ, keys, [])) as [string, string[], string[], string[]];
    const pairs = (flat: string[]) => new Map(flat.flatMap((value, index) => (index % 2 === 0 ? [[value, flat[index + 1] ?? '']] : [])));
    const leftOf = pairs(left);
    const hitsOf = pairs(hits);
    held = [...pairs(specs)]
      .map(([id, json]) => {
        const bar = json.indexOf('|');
        const order = Number(json.slice(0, bar));
        const spec = JSON.parse(json.slice(bar + 1)) as FaultSpec;
        const remaining = leftOf.get(id);
        return { id, spec, order, hits: Number(hitsOf.get(id) ?? 0), remaining: remaining === undefined ? undefined : Number(remaining) };
      })
      .sort((a, b) => a.order - b.order);
    version = now;
  }

  await redis.script(ADD, keys, ['1', ...initial.flatMap((spec) => argsOf(randomUUID(), spec))]);
  await reload();

  const poll = setInterval(() => {
    redis.client
      .get(keys[3] as string)
      .then((now) => (now !== version ? reload() : undefined))
      .catch(() => {});
  }, pollMs);
  poll.unref();

  const view = (fault: Held): Fault => ({
    ...fault.spec,
    id: fault.id,
    hits: fault.hits,
    ...(fault.remaining !== undefined ? { times: fault.remaining } : {}),
  });

  function matching(operation: string, random: () => number): Held[] {
    let outcome = false;
    return held.filter((fault) => {
      if (fault.spec.operation !== undefined && fault.spec.operation !== operation) return false;
      if (fault.spec.kind !== 'latency' && outcome) return false;
      if (fault.spec.percentage !== undefined && random() * 100 >= fault.spec.percentage) return false;
      if (fault.spec.kind !== 'latency' && fault.remaining === undefined) outcome = true;
      return true;
    });
  }

  function planOf(applied: readonly string[], random: () => number): FaultPlan {
    let delayMs = 0;
    let outcome: Fault | undefined;
    const kinds: string[] = [];
    for (let index = 0; index < applied.length; index += 2) {
      const fault = held.find((each) => each.id === applied[index]);
      if (!fault) continue;
      const left = applied[index + 1];
      fault.hits += 1;
      if (left !== undefined && left !== '') fault.remaining = Number(left);
      if (fault.remaining === 0) held = held.filter((each) => each !== fault);
      kinds.push(fault.spec.kind);
      if (fault.spec.kind === 'latency') delayMs += latencyOf(fault.spec, random);
      else outcome = view(fault);
    }
    return kinds.length === 0 ? NONE : { delayMs, applied: kinds, outcome };
  }

  const registry: SharedFaults = {
    add(spec) {
      checked(spec);
      const fault: Held = { spec, id: randomUUID(), order: Number.MAX_SAFE_INTEGER, hits: 0, remaining: spec.times };
      held = [...held, fault];
      write(['0', ...argsOf(fault.id, spec)], ADD);
      return view(fault);
    },
    list: () => held.map(view),
    remove(id) {
      if (!held.some((fault) => fault.id === id)) return false;
      held = held.filter((fault) => fault.id !== id);
      write([id], REMOVE);
      return true;
    },
    clear() {
      held = [];
      write([], REMOVE);
    },
    // Without the shared count (a caller that cannot wait): the faults that match, as this replica holds them.
    plan(operation, random = Math.random) {
      const found = matching(operation, random);
      return planOf(
        found.flatMap((fault) => [fault.id, '']),
        random,
      );
    },
    shared: {
      plan(operation, random = Math.random) {
        if (held.length === 0) return NONE;
        const found = matching(operation, random);
        if (found.length === 0) return NONE;
        return redis
          .script(
            PLAN,
            keys,
            found.flatMap((fault) => [fault.id, fault.spec.kind]),
          )
          .then(
            (applied) => planOf(applied as string[], random),
            // The store is away: no fault is applied; the request meets the store's own 503 if it needs it.
            () => NONE,
          );
      },
      async synced() {
        await Promise.all([...writes]);
        const error = failed;
        failed = undefined;
        if (error !== undefined) throw error;
        await reload();
      },
    },
    close: () => clearInterval(poll),
  };
  return registry;
}
