/**
 * The Lua scripts of one collection: each runs whole on the Redis server (nothing else runs between
 * its commands), so a create-if-absent, a compare-and-set update or a seed is one atomic step for
 * every replica. They use only commands Valkey has too. Every script names its keys, in this order:
 *   1 items    hash: field (the encoded key) → the item's fields as exact JSON
 *   2 order    sorted set: field, scored by its creation sequence (the list order and cursor)
 *   3 sequence string: the last creation sequence given (never reused, not even after a reset)
 *   4 allocated string: the last number the allocation sequence gave (survives a reset)
 *   5 seeded   string: set once the store's seed is in (a seed given once per store, not per replica)
 *   6 counts   hash: items per namespace (health), kept with the items in the same step
 */

/** ARGV: field, json → {1} stored, or {0, json of the item already there}. */
export const CREATE = `
local found = redis.call('HGET', KEYS[1], ARGV[1])
if found then return {0, found} end
local sequence = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], sequence, ARGV[1])
redis.call('HINCRBY', KEYS[6], 'items', 1)
return {1}`;

/** ARGV: field, expected json ('' = any), new json → {1} stored, {0} none, or {2, json now} when it changed meanwhile. */
export const REPLACE = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return {0} end
if ARGV[2] ~= '' and current ~= ARGV[2] then return {2, current} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return {1}`;

/** ARGV: field → 1 removed, 0 none. */
export const DELETE = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HINCRBY', KEYS[6], 'items', -1)
return 1`;

/** Removes every item; the creation and allocation sequences go on where they were. */
export const RESET = `
local held = redis.call('HLEN', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HINCRBY', KEYS[6], 'items', -held)
return held`;

/**
 * ARGV: once ('1': only if the store was never seeded), then field, json pairs → the fields
 * already taken (left as they were), or {'seeded-before'} when once and seeded before. The
 * allocation sequence moves past the largest positive integer key stored (compared as digits, so
 * int64 keys beyond 2^53 are exact).
 */
export const SEED = `
if ARGV[1] == '1' and not redis.call('SET', KEYS[5], '1', 'NX') then return {'seeded-before'} end
local taken = {}
local highest = redis.call('GET', KEYS[4]) or '0'
local added = 0
for i = 2, #ARGV, 2 do
  local field = ARGV[i]
  if redis.call('HEXISTS', KEYS[1], field) == 1 then
    taken[#taken + 1] = field
  else
    local sequence = redis.call('INCR', KEYS[3])
    redis.call('HSET', KEYS[1], field, ARGV[i + 1])
    redis.call('ZADD', KEYS[2], sequence, field)
    added = added + 1
    local digits = string.match(field, '^i([1-9][0-9]*)$')
    if digits and (#digits > #highest or (#digits == #highest and digits > highest)) then highest = digits end
  end
end
if highest ~= (redis.call('GET', KEYS[4]) or '0') then redis.call('SET', KEYS[4], highest) end
redis.call('HINCRBY', KEYS[6], 'items', added)
return taken`;

/** ARGV: after (a creation sequence), count → up to count {field, sequence, json} after it, in creation order. */
export const PAGE = `
local rows = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. ARGV[1], '+inf', 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[2]))
local out = {}
for i = 1, #rows, 2 do
  out[#out + 1] = rows[i]
  out[#out + 1] = rows[i + 1]
  out[#out + 1] = redis.call('HGET', KEYS[1], rows[i]) or ''
end
return out`;
