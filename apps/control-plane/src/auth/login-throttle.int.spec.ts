import { sha256Hex } from '@flowgate/platform';
import { type TestApp, startTestApp, uniqueAddress } from '../testing/test-app';

// Each checked password is a deliberate scrypt hash (~90 ms on a quiet core): a case here checks
// dozens, which a busy machine (or a run of the whole suite) takes well over Jest's 30 s for.
jest.setTimeout(180_000);

/** The throttle with its documented defaults (10 per account, 100 per address, 15 minutes). */
describe('login throttle under concurrency (real Redis)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, loginThrottle: { maxFailuresPerAccount: 10, maxFailuresPerAddress: 100, windowSeconds: 900 } }));
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, address: string) =>
    t.http().post('/v1/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('checks at most 10 of 30 concurrent wrong passwords; the rest and then the right password get 429', async () => {
    const account = await t.signup();
    const address = uniqueAddress();
    const answers = await Promise.all(Array.from({ length: 30 }, () => login(account.email, 'wrong password', address)));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);

    const blocked = await login(account.email, account.password, uniqueAddress()).expect(429);
    expect(blocked.body).toEqual({ success: false, code: 'too_many_attempts', message: expect.any(String) });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);
  });

  it('slides: once the oldest failure is older than the window, exactly one more guess is checked', async () => {
    const account = await t.signup();
    for (let i = 0; i < 10; i++) await login(account.email, 'wrong password', uniqueAddress()).expect(401);
    await login(account.email, 'wrong password', uniqueAddress()).expect(429);

    // Age the oldest attempt past the window, as 15 minutes would.
    const key = `fg:cp:login-attempts:account:${sha256Hex(account.email)}`;
    const [oldest] = await t.redis.zrange(key, 0, 0);
    await t.redis.zadd(key, 'XX', Date.now() - 901_000, oldest!);

    await login(account.email, 'wrong password', uniqueAddress()).expect(401);
    await login(account.email, account.password, uniqueAddress()).expect(429);
  });

  it('counts only failures: successful logins leave the address and the account free', async () => {
    const account = await t.signup();
    const address = uniqueAddress();
    for (let i = 0; i < 9; i++) await login(account.email, 'wrong password', address).expect(401);
    await login(account.email, account.password, address).expect(200);
    // The success cleared the account's window: ten more guesses are checked, the eleventh is not.
    for (let i = 0; i < 10; i++) await login(account.email, 'wrong password', uniqueAddress()).expect(401);
    await login(account.email, 'wrong password', uniqueAddress()).expect(429);
    expect(await t.redis.zcard(`fg:cp:login-attempts:address:${address}`)).toBe(9);
  });
});

describe('login throttle when Redis is away', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp((config) => ({ ...config, redisUrl: 'redis://127.0.0.1:1' }));
  });
  afterAll(() => t.close());

  it('checks no password (503 unavailable) rather than let a guess go uncounted; a new account can still sign up', async () => {
    const account = await t.signup();
    const response = await t.http().post('/v1/auth/login').send({ email: account.email, password: account.password }).expect(503);
    expect(response.body).toEqual({ success: false, code: 'unavailable', message: expect.any(String) });
    expect(response.headers['retry-after']).toBe('1');
  });
});
