import { subdomainSchema } from './subdomain';

describe('subdomain rules', () => {
  it.each(['abc', 'shop-1', 'a'.repeat(63), 'my-api-2'])('accepts %p', (value) => {
    expect(subdomainSchema.parse(value)).toBe(value);
  });

  it('trims and lowercases', () => {
    expect(subdomainSchema.parse('  MyShop ')).toBe('myshop');
  });

  it.each(['ab', 'a'.repeat(64), '-abc', '9abc', 'abc-', 'ab.c', 'ab_c', 'über', 'xn--p1ai', 'api', 'admin', 'www', 'app', 'dashboard', 'docs', 'status', 'mail', 'static'])(
    'refuses %p',
    (value) => {
      expect(subdomainSchema.safeParse(value).success).toBe(false);
    },
  );
});
