/**
 * GET answers kept for `cache.ttl_s` (docs/inbound.md "Response caching"), shared by every
 * gateway. Every key of a project carries its hash tag, so one script touches one Cluster slot.
 *
 * - `fg:cache:{pid}:ENDPOINT:VERSION:VARIANT` → `STATUS\nSTORED_AT_MS\nBODY` (PX = the TTL)
 * - `fg:cache-lru:{pid}`: ZSET of the project's entry keys by last use (ms)
 * - `fg:cache-size:{pid}`: HASH entry key → bytes; `fg:cache-bytes:{pid}`: their sum
 *
 * The sum counts an expired entry until it is evicted or purged, so a project holds at most
 * its bound, never more (the bound is conservative while expired entries wait).
 */
export const responseCacheEntryKey = (projectId: string, endpointId: string, version: number, variant: string): string =>
  `fg:cache:{${projectId}}:${endpointId}:${version}:${variant}`;
export const responseCacheEndpointPrefix = (projectId: string, endpointId: string): string => `fg:cache:{${projectId}}:${endpointId}:`;
export const responseCacheLruKey = (projectId: string): string => `fg:cache-lru:{${projectId}}`;
export const responseCacheSizesKey = (projectId: string): string => `fg:cache-size:{${projectId}}`;
export const responseCacheBytesKey = (projectId: string): string => `fg:cache-bytes:{${projectId}}`;

/** KEYS: entry, lru. ARGV: now ms. The entry, its use recorded; nil on a miss. */
export const RESPONSE_CACHE_GET_LUA = `
local v = redis.call('GET', KEYS[1])
if v then redis.call('ZADD', KEYS[2], 'XX', ARGV[1], KEYS[1]) end
return v`;

/**
 * KEYS: entry, lru, sizes, bytes. ARGV: value, ttl ms, now ms, the project's bound in bytes.
 * Stores the entry, then evicts the least recently used entries until the project is within
 * its bound (an entry larger than the bound is not stored).
 */
export const RESPONSE_CACHE_SET_LUA = `
local size = string.len(ARGV[1]) + string.len(KEYS[1])
local bound = tonumber(ARGV[4])
if size > bound then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local old = tonumber(redis.call('HGET', KEYS[3], KEYS[1]) or '0')
redis.call('HSET', KEYS[3], KEYS[1], size)
redis.call('ZADD', KEYS[2], ARGV[3], KEYS[1])
local total = redis.call('INCRBY', KEYS[4], size - old)
while total > bound do
  local oldest = redis.call('ZPOPMIN', KEYS[2])
  if #oldest == 0 then break end
  local gone = tonumber(redis.call('HGET', KEYS[3], oldest[1]) or '0')
  redis.call('HDEL', KEYS[3], oldest[1])
  redis.call('DEL', oldest[1])
  total = redis.call('DECRBY', KEYS[4], gone)
end
return 1`;

/**
 * KEYS: lru, sizes, bytes. ARGV: an endpoint's key prefix. Ends every entry of the endpoint
 * (Deploy, rollback, undeploy). Walks the project's entries: at most its bound's worth.
 */
export const RESPONSE_CACHE_PURGE_LUA = `
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local gone = 0
local n = 0
for _, key in ipairs(members) do
  if string.sub(key, 1, string.len(ARGV[1])) == ARGV[1] then
    gone = gone + tonumber(redis.call('HGET', KEYS[2], key) or '0')
    redis.call('HDEL', KEYS[2], key)
    redis.call('ZREM', KEYS[1], key)
    redis.call('DEL', key)
    n = n + 1
  end
end
if gone > 0 then redis.call('DECRBY', KEYS[3], gone) end
return n`;
