import { keptSubdomainSchema, subdomainSchema } from './subdomain';

describe('subdomain rules', () => {
  it.each(['abc', 'shop-1', 'a'.repeat(54), 'my-api-2'])('accepts %p', (value) => {
    expect(subdomainSchema.parse(value)).toBe(value);
  });

  it('trims and lowercases', () => {
    expect(subdomainSchema.parse('  MyShop ')).toBe('myshop');
  });

  it.each(['ab', 'a'.repeat(55), 'shop--api', 'shop--preview', '-abc', '9abc', 'abc-', 'ab.c', 'ab_c', 'über', 'xn--p1ai', 'api', 'admin', 'www', 'app', 'dashboard', 'docs', 'status', 'mail', 'static'])(
    'refuses %p',
    (value) => {
      expect(subdomainSchema.safeParse(value).success).toBe(false);
    },
  );

  it('lets a project keep a subdomain of the older rules (63 characters, -- after the fourth)', () => {
    expect(keptSubdomainSchema.parse('shop--api')).toBe('shop--api');
    expect(keptSubdomainSchema.parse('a'.repeat(63))).toBe('a'.repeat(63));
    expect(keptSubdomainSchema.safeParse('xn--p1ai').success).toBe(false);
  });
});
