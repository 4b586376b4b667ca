/**
 * The issued tokens of replicas on one Redis (serve --store redis://…, issue 22): a token issued
 * by one replica is honoured by all. Kept as in one process (src/auth/issued-tokens.ts): the
 * token's sha-256 digest only, never the token; the most recent `max` across all replicas, the
 * oldest forgotten first, so signing in in a loop cannot grow the store without bound. A hash
 * (digest → user) and a list (digests, oldest first) under one hash tag, trimmed by one script,
 * so a Redis Cluster keeps them in one slot. A lookup is one HGET.
 */
import { randomBytes } from 'node:crypto';
import type { RedisConnection } from '../store/redis/connection.js';
import { digest, MAX_TOKENS, type IssuedTokens, type IssuedUser } from './issued-tokens.js';

/** KEYS: the users by digest, the digests oldest first. ARGV: the digest, the user, the bound. */
const ISSUE = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local over = redis.call('RPUSH', KEYS[2], ARGV[1]) - tonumber(ARGV[3])
for _ = 1, over do
  local oldest = redis.call('LPOP', KEYS[2])
  if oldest then redis.call('HDEL', KEYS[1], oldest) end
end
return 1
`;

/** The keys of a namespace's issued tokens ('ps:<document hash>'). */
export function issuedTokenKeys(namespace: string): readonly [users: string, order: string] {
  return [`${namespace}:{issued-tokens}:users`, `${namespace}:{issued-tokens}:order`];
}

export function createSharedIssuedTokens(redis: RedisConnection, namespace: string, max: number = MAX_TOKENS): IssuedTokens {
  const [usersKey, orderKey] = issuedTokenKeys(namespace);
  return {
    async issue(user) {
      const token = randomBytes(32).toString('base64url');
      // Kept before it is answered: the next request may reach another replica.
      await redis.script(ISSUE, [usersKey, orderKey], [digest(token), stored(user), max]);
      return token;
    },
    async find(token) {
      const text = await redis.call((client) => client.hget(usersKey, digest(token)));
      return text === null ? undefined : parsed(text);
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
