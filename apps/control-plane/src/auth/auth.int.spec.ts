import { sha256Hex } from '@flowgate/platform';
import { type TestApp, startTestApp, uniqueAddress, uniqueEmail } from '../testing/test-app';

describe('auth (real PostgreSQL and Redis)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp((config) => ({
      ...config,
      loginThrottle: { maxFailuresPerAccount: 3, maxFailuresPerAddress: 5, windowSeconds: 60 },
    }));
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, address = uniqueAddress()) =>
    t.http().post('/v1/auth/login').set('X-Forwarded-For', address).send({ email, password });

  it('signs up, returns the user and a token, and sets an HttpOnly SameSite cookie', async () => {
    const email = uniqueEmail();
    const response = await t.http().post('/v1/auth/signup').send({ email: email.toUpperCase(), password: 'correct horse battery' }).expect(201);
    await t.prisma.account.delete({ where: { id: response.body.user.id } }).catch(() => undefined);
    expect(response.body.user).toEqual({ id: expect.any(String), email, created_at: expect.any(String) });
    expect(response.body.token).toMatch(/^fgs_/);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toContain(`fg_session=${response.body.token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it('stores only the SHA-256 of the token and of no password in clear', async () => {
    const account = await t.signup();
    const sessions = await t.prisma.session.findMany({ where: { accountId: account.id } });
    expect(sessions.map((s) => s.tokenHash)).toEqual([sha256Hex(account.token)]);
    const stored = await t.prisma.account.findUniqueOrThrow({ where: { id: account.id } });
    expect(stored.passwordHash).toMatch(/^scrypt\$/);
    expect(stored.passwordHash).not.toContain(account.password);
  });

  it('accepts the token as Bearer and as the cookie on /me', async () => {
    const account = await t.signup();
    const bearer = await t.http().get('/v1/auth/me').set(account.auth).expect(200);
    expect(bearer.body.user).toMatchObject({ id: account.id, email: account.email });
    const cookie = await t.http().get('/v1/auth/me').set('Cookie', `fg_session=${account.token}`).expect(200);
    expect(cookie.body.user.id).toBe(account.id);
  });

  it('refuses missing, malformed and unknown tokens with 401', async () => {
    for (const headers of [{}, { Authorization: 'Bearer nope' }, { Authorization: 'Bearer fgs_unknown' }, { Authorization: 'Basic abc' }]) {
      const response = await t.http().get('/v1/auth/me').set(headers).expect(401);
      expect(response.body).toMatchObject({ success: false, code: 'unauthorized' });
    }
  });

  describe('sign-up does not reveal whether an email is registered', () => {
    const signup = (email: string, password: string, address = uniqueAddress()) =>
      t.http().post('/v1/auth/signup').set('X-Forwarded-For', address).send({ email, password });

    it('answers an existing email (any letter case) with another password exactly like a failed login: 401, never 409', async () => {
      const account = await t.signup();
      const taken = await signup(account.email.toUpperCase(), 'another password').expect(401);
      const failedLogin = await login(account.email, 'another password').expect(401);
      expect(taken.body).toEqual(failedLogin.body);
      expect(JSON.stringify(taken.body)).not.toMatch(/exist|taken|registered|conflict/i);
      expect(await t.prisma.account.count({ where: { email: account.email } })).toBe(1);
    });

    it('logs in when the existing email comes with its own password (a double-submitted form works)', async () => {
      const account = await t.signup();
      const again = await signup(account.email, account.password).expect(201);
      expect(again.body.user.id).toBe(account.id);
      await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${again.body.token}`).expect(200);
    });

    it('counts a wrong password at sign-up as a failed login: probing is throttled like guessing', async () => {
      const account = await t.signup();
      for (let i = 0; i < 3; i++) await signup(account.email, `probe number ${i} here`).expect(401);
      const blocked = await signup(account.email, 'yet another probe').expect(429);
      expect(blocked.body.code).toBe('too_many_attempts');
      await login(account.email, account.password).expect(429);
    });
  });

  describe('password strength at sign-up', () => {
    it.each([
      ['password', 'most common'],
      ['12345678', 'most common'],
      ['P@ssw0rd', 'common password with small changes'],
      ['letmein123', 'common password'],
      ['qwertyuiop', 'common'],
    ])('refuses %j with 400 weak_password saying why (%s); no account is created', async (password, reason) => {
      const email = uniqueEmail();
      const response = await t.http().post('/v1/auth/signup').send({ email, password }).expect(400);
      expect(response.body).toEqual({
        success: false,
        code: 'weak_password',
        message: expect.stringContaining(reason),
        details: [{ path: 'password', message: response.body.message }],
      });
      expect(await t.prisma.account.count({ where: { email } })).toBe(0);
    });

    it('refuses the email address itself as the password', async () => {
      const email = uniqueEmail();
      const response = await t.http().post('/v1/auth/signup').send({ email, password: `${email}1` }).expect(400);
      expect(response.body.message).toContain('email address');
    });

    it.each(['correct horse battery', 'Tr0ub4dor&3', 'flowgate-k9x-2Lq'])('accepts %j', async (password) => {
      const response = await t.http().post('/v1/auth/signup').send({ email: uniqueEmail(), password }).expect(201);
      await t.prisma.account.delete({ where: { id: response.body.user.id } });
    });
  });

  it('validates signup input with 400 details', async () => {
    const response = await t.http().post('/v1/auth/signup').send({ email: 'not-an-email', password: 'short' }).expect(400);
    expect(response.body.code).toBe('invalid_request');
    expect(response.body.details.map((d: { path: string }) => d.path).sort()).toEqual(['email', 'password']);
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const response = await t.http().post('/v1/auth/signup').set('Content-Type', 'application/json').send('{"email":').expect(400);
    expect(response.body).toEqual({ success: false, code: 'invalid_json', message: expect.any(String) });
  });

  it('logs in, and answers wrong password and unknown account with the same 401', async () => {
    const account = await t.signup();
    const ok = await login(account.email.toUpperCase(), account.password).expect(200);
    expect(ok.body.user.id).toBe(account.id);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${ok.body.token}`).expect(200);

    const wrong = await login(account.email, 'wrong password').expect(401);
    const unknown = await login(uniqueEmail(), 'wrong password').expect(401);
    expect(wrong.body).toEqual({ success: false, code: 'invalid_credentials', message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('revokes the session on logout, leaving the account’s other sessions alive', async () => {
    const account = await t.signup();
    const other = await login(account.email, account.password).expect(200);
    await t.http().post('/v1/auth/logout').set(account.auth).expect(200, { success: true, message: 'Logged out' });
    await t.http().get('/v1/auth/me').set(account.auth).expect(401);
    await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${other.body.token}`).expect(200);
  });

  describe('password change and signing out everywhere', () => {
    const change = (auth: Record<string, string>, body: Record<string, string>, address = uniqueAddress()) =>
      t.http().post('/v1/auth/password').set(auth).set('X-Forwarded-For', address).send(body);

    it('changes the password: every other session ends, this one goes on, and only the new password logs in', async () => {
      const account = await t.signup();
      const laptop = await login(account.email, account.password).expect(200);
      const phone = await login(account.email, account.password).expect(200);
      const next = `new-${account.password}-river`;
      await change(account.auth, { current_password: account.password, new_password: next }).expect(200, { success: true, message: 'Password changed; every other session has ended' });
      await t.http().get('/v1/auth/me').set(account.auth).expect(200);
      for (const other of [laptop, phone]) await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${other.body.token}`).expect(401);
      await login(account.email, account.password).expect(401);
      await login(account.email, next).expect(200);
    });

    it('refuses a wrong current password (400 naming it, the session kept), a weak new one, and throttles guesses like logins', async () => {
      const account = await t.signup();
      const other = await login(account.email, account.password).expect(200);
      const wrong = await change(account.auth, { current_password: 'not it', new_password: 'a much better passphrase' }).expect(400);
      expect(wrong.body).toMatchObject({ code: 'invalid_request', details: [{ path: 'current_password', message: 'is not your current password' }] });
      const weak = await change(account.auth, { current_password: account.password, new_password: 'password1' }).expect(400);
      expect(weak.body).toMatchObject({ code: 'weak_password', details: [{ path: 'new_password' }] });
      const missing = await change(account.auth, { new_password: 'a much better passphrase' }).expect(400);
      expect(JSON.stringify(missing.body.details)).toContain('current_password');
      // Nothing changed: both sessions live, the old password logs in.
      await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${other.body.token}`).expect(200);
      await login(account.email, account.password).expect(200);
      // Guessing through a stolen session is throttled per account (3 failures here).
      for (let i = 0; i < 3; i++) await change(account.auth, { current_password: `guess ${i}`, new_password: 'a much better passphrase' }).expect(400);
      const blocked = await change(account.auth, { current_password: account.password, new_password: 'a much better passphrase' }).expect(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      await t.http().post('/v1/auth/password').send({ current_password: 'x', new_password: 'yyyyyyyy' }).expect(401);
    });

    it('signs out everywhere: every session of the account ends, this one too, and the cookie is cleared; other accounts keep theirs', async () => {
      const account = await t.signup();
      const bystander = await t.signup();
      const other = await login(account.email, account.password).expect(200);
      const answer = await t.http().post('/v1/auth/logout-all').set(account.auth).expect(200, { success: true, message: 'Signed out everywhere' });
      expect(String(answer.headers['set-cookie'])).toMatch(/fg_session=;/);
      for (const token of [account.token, other.body.token]) await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
      await t.http().get('/v1/auth/me').set(bystander.auth).expect(200);
      await login(account.email, account.password).expect(200);
      await t.http().post('/v1/auth/logout-all').expect(401);
    });
  });

  it('refuses an expired session', async () => {
    const account = await t.signup();
    await t.prisma.session.updateMany({ where: { tokenHash: sha256Hex(account.token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await t.http().get('/v1/auth/me').set(account.auth).expect(401);
  });

  it('throttles an account after repeated failures, from any address, with 429 and Retry-After', async () => {
    const account = await t.signup();
    for (let i = 0; i < 3; i++) await login(account.email, 'wrong password').expect(401);
    const blocked = await login(account.email, account.password).expect(429);
    expect(blocked.body).toMatchObject({ success: false, code: 'too_many_attempts' });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await t.signup();
    await login(other.email, other.password).expect(200);
  });

  it('throttles an address that fails on many accounts', async () => {
    const address = uniqueAddress();
    for (let i = 0; i < 5; i++) await login(uniqueEmail(), 'wrong password', address).expect(401);
    const account = await t.signup();
    const blocked = await login(account.email, account.password, address).expect(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    await login(account.email, account.password).expect(200);
  });
});
