/**
 * The issued tokens of replicas on one Redis (serve --store redis://…, issue 22): a token issued
 * by one replica is honoured by all. Kept as in one process (src/auth/issued-tokens.ts): the
 * token's sha-256 digest only, never the token; the most recent `max` across all replicas, the
 * oldest forgotten first, so signing in in a loop cannot grow the store without bound. One key per
 * token (digest → user) and a list of those keys, oldest first, under one hash tag, trimmed by one
 * script, so a Redis Cluster keeps them in one slot. A token with a lifetime is a key Redis expires
 * itself (PX): its lifetime plus ENDED_KEPT_MS, the span in which its refusal says it expired,
 * read from the key's PTTL, so no replica's clock is asked. A log-out overwrites the user with
 * LOGGED_OUT, kept ENDED_KEPT_MS. A lookup is one round trip (GET and PTTL in one MULTI).
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from '../store/redis/connection.js';
import { digest, ENDED_KEPT_MS, MAX_TOKENS, type IssuedTokens, type IssuedUser, type SessionEnd } from './issued-tokens.js';

/** KEYS: the token's key, the keys oldest first. ARGV: the user, its time to live in ms (0: none), the bound. */
const ISSUE = `
if tonumber(ARGV[2]) > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[1])
end
local over = redis.call('RPUSH', KEYS[2], KEYS[1]) - tonumber(ARGV[3])
for _ = 1, over do
  local oldest = redis.call('LPOP', KEYS[2])
  if oldest then redis.call('DEL', oldest) end
end
return 1
`;

/**
 * KEYS: the token's key. ARGV: what a logged-out key holds, ENDED_KEPT_MS. The user of a live token
 * (not logged out, not in its expired span), its key logged out in the same script: one use, whichever
 * replica asks first.
 */
const TAKE = `
local value = redis.call('GET', KEYS[1])
if not value or value == ARGV[1] then return false end
local left = redis.call('PTTL', KEYS[1])
if left >= 0 and left <= tonumber(ARGV[2]) then return false end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return value
`;

/** What a logged-out token's key holds instead of its user. */
const LOGGED_OUT = 'logged-out';

/** The keys of a namespace's issued tokens ('ps:<document hash>'): a token's key by its digest, and the list of them, oldest first. */
export function issuedTokenKeys(namespace: string): { readonly token: (digest: string) => string; readonly order: string } {
  return { token: (of) => `${namespace}:{issued-tokens}:t:${of}`, order: `${namespace}:{issued-tokens}:order` };
}

export function createSharedIssuedTokens(redis: RedisConnection, namespace: string, max: number = MAX_TOKENS): IssuedTokens {
  const keys = issuedTokenKeys(namespace);
  /** The token's kept value and the ms it has left (-1: no expiry), or undefined when it is not kept. */
  const read = async (token: string): Promise<{ readonly value: string; readonly leftMs: number } | undefined> => {
    const key = keys.token(digest(token));
    const replies = await redis.call((client) => client.multi().get(key).pttl(key).exec());
    const [[, value] = [], [, left] = []] = replies ?? [];
    return typeof value === 'string' ? { value, leftMs: Number(left) } : undefined;
  };
  const expired = (leftMs: number): boolean => leftMs >= 0 && leftMs <= ENDED_KEPT_MS;
  return {
    async issue(user, lifetimeMs) {
      const token = randomBytes(32).toString('base64url');
      // Kept before it is answered: the next request may reach another replica.
      const ttl = lifetimeMs === undefined ? 0 : Math.ceil(lifetimeMs) + ENDED_KEPT_MS;
      await redis.script(ISSUE, [keys.token(digest(token)), keys.order], [stored(user), ttl, max]);
      return token;
    },
    async find(token) {
      const kept = await read(token);
      if (kept === undefined || kept.value === LOGGED_OUT || expired(kept.leftMs)) return undefined;
      return parsed(kept.value);
    },
    async ended(token): Promise<SessionEnd | undefined> {
      const kept = await read(token);
      if (kept === undefined) return undefined;
      return kept.value === LOGGED_OUT ? 'logged-out' : expired(kept.leftMs) ? 'expired' : undefined;
    },
    async revoke(token) {
      // XX: only a token still kept; its key stays in the order list, trimmed in its turn.
      await redis.call((client) => client.set(keys.token(digest(token)), LOGGED_OUT, 'PX', ENDED_KEPT_MS, 'XX'));
    },
    async take(token) {
      const value = await redis.script(TAKE, [keys.token(digest(token))], [LOGGED_OUT, ENDED_KEPT_MS]);
      return typeof value === 'string' ? parsed(value) : undefined;
    },
  };
}

/** A user as kept: the key's kind too, so a number key comes back a bigint. */
function stored(user: IssuedUser): string {
  return JSON.stringify([user.tenant, user.collection, String(user.key), typeof user.key === 'bigint' ? 'n' : 's']);
}

/** A kept user, or undefined for a value that is not one (written by something else): the token is not honoured. */
function parsed(text: string): IssuedUser | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 4 || !value.every((part) => typeof part === 'string')) return undefined;
  const [tenant, collection, key, kind] = value as [string, string, string, string];
  if (kind === 's') return { tenant, collection, key };
  return kind === 'n' && /^-?[0-9]+$/.test(key) ? { tenant, collection, key: BigInt(key) } : undefined;
}
