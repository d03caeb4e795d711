/**
 * Auth, permission, exact sliding-window rate limit and last-used bookkeeping in one Redis
 * round trip. KEYS: `fg:key:{hash}`, `fg:rl:{hash}` (same hash tag → same Cluster slot).
 * ARGV: project id of the Host, a member unique to this request, the level required
 * (`user` | `admin`).
 *
 * The window is a log: a ZSET of accepted request times (Redis server clock, ms). A request
 * is accepted only when fewer than `ratelimit_min` were accepted in the 60 s before it, so no
 * 60-second interval ever holds more than the limit, whichever gateway served them.
 * Refused requests (forbidden or limited) are not recorded. `last_used_ms` is written at most
 * once a second per key (the control plane shows it to the second), and the window's TTL
 * (61 s) is renewed with it: every entry still expires with the key no later than 61 s after
 * it was added, and no entry younger than 60 s is ever lost.
 *
 * Reply: {status, key id, permission, limit, remaining, reset ms}; status 0 = unknown key or a
 * key of another project (the rest absent), 1 = accepted, 2 = rate limited, 3 = forbidden.
 */
export const KEY_CHECK_LUA = `
local rec = redis.call('HMGET', KEYS[1], 'project_id', 'id', 'permission', 'ratelimit_min', 'last_used_ms')
if rec[1] ~= ARGV[1] then return {0} end
local limit = tonumber(rec[4]) or 0
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
local count = redis.call('ZCARD', KEYS[2])
local status = 1
local oldest = nil
if ARGV[3] == 'admin' and rec[3] ~= 'admin' then
  status = 3
elseif count >= limit then
  status = 2
else
  if count == 0 then oldest = now end
  redis.call('ZADD', KEYS[2], now, ARGV[2])
  -- last use to the second is enough; skip the write while it is fresh. The window's expiry
  -- rides along (and is set whenever the window was empty, i.e. the key is new): renewed to
  -- 61 s at most 1 s before any accepted request, it always outlives the newest entry by
  -- 60 s, and saves a PEXPIRE on every other request.
  local fresh = now - (tonumber(rec[5]) or 0) < 1000
  if not fresh then redis.call('HSET', KEYS[1], 'last_used_ms', now) end
  if count == 0 or not fresh then redis.call('PEXPIRE', KEYS[2], 61000) end
  count = count + 1
end
local reset = 0
if count > 0 then
  if oldest == nil then oldest = tonumber(redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]) end
  reset = oldest + 60000 - now
end
local remaining = limit - count
if remaining < 0 then remaining = 0 end
return {status, rec[2], rec[3], limit, remaining, reset}
`;
