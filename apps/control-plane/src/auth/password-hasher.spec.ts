import { PasswordHasher } from './password-hasher';

describe('password hashing (scrypt)', () => {
  const hasher = new PasswordHasher();

  it('verifies the right password only, with a fresh salt each time', async () => {
    const first = await hasher.hash('correct horse');
    const second = await hasher.hash('correct horse');
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    await expect(hasher.verify('correct horse', first)).resolves.toBe(true);
    await expect(hasher.verify('wrong horse', first)).resolves.toBe(false);
  });

  it('refuses malformed stored hashes and answers unknown accounts false', async () => {
    await expect(hasher.verify('x', 'plain-text')).resolves.toBe(false);
    await expect(hasher.verifyAgainstDummy('anything')).resolves.toBe(false);
  });
});
