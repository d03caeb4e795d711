/**
 * Reserves one login attempt in a sliding window, atomically: KEYS[1] is a sorted set of the
 * window's attempts (member: attempt id, score: Redis server time in ms). ARGV: window ms,
 * maximum attempts in the window, attempt id.
 *
 * Entries older than the window are dropped first; the attempt is then added only while fewer
 * than the maximum remain, so no window-long interval ever holds more than the maximum, however
 * many logins run at once on however many control planes. Reply: 0 = reserved, otherwise the
 * milliseconds until the oldest entry leaves the window (for Retry-After). One key per call, so
 * it runs on Redis Cluster too.
 */
export const LOGIN_ATTEMPT_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return math.max(tonumber(oldest[2]) + window - now, 1)
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 0
`;
