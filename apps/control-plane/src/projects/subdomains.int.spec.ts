import { type TestAccount, type TestApp, useTestApp, uniqueSubdomain } from '../testing/test-app';

describe('GET /v1/subdomains/:name (real PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestAccount;
  useTestApp((app, account) => ([t, owner] = [app, account]));

  const ask = (name: string) => t.http().get(`/v1/subdomains/${encodeURIComponent(name)}`).set(owner.auth).expect(200);

  it('says a free, well-formed name is available (case and spaces ignored, as the create does)', async () => {
    const answer = await ask(` ${uniqueSubdomain().toUpperCase()} `);
    expect(answer.body).toEqual({ available: true, reason: null, message: null });
  });

  it('says a name another account uses is taken', async () => {
    const other = await t.signup();
    const project = await t.createProject(other);
    expect((await ask(project.subdomain)).body).toEqual({ available: false, reason: 'taken', message: 'Subdomain is already taken' });
  });

  it.each(['admin', 'WWW', 'dashboard'])('says %p is reserved', async (name) => {
    expect((await ask(name)).body).toEqual({ available: false, reason: 'reserved', message: 'Subdomain is reserved' });
  });

  it.each([
    ['ab', 'must be at least 3 characters'],
    ['1abc', 'must start with a letter'],
    ['abc-', 'must not end with a hyphen'],
    ['xn--abc', 'hyphens in the third and fourth'],
    ['a'.repeat(55), 'at most 54'],
    ['shop--api', 'two hyphens in a row'],
  ])('says %p is invalid and why', async (name, why) => {
    const answer = await ask(name);
    expect(answer.body).toMatchObject({ available: false, reason: 'invalid' });
    expect(answer.body.message).toContain(why);
  });

  it('needs a session', async () => {
    const answer = await t.http().get(`/v1/subdomains/${uniqueSubdomain()}`).expect(401);
    expect(answer.body).toMatchObject({ success: false, code: 'unauthorized' });
  });
});
