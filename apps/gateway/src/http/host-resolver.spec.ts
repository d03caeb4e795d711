import { HostResolver } from './host-resolver';

describe('HostResolver', () => {
  const hosts = new HostResolver('localhost');

  it.each([
    ['shop.localhost:8080', 'shop'],
    ['SHOP.LocalHost:8080', 'shop'],
    ['shop.localhost', 'shop'],
    ['shop.localhost.:8080', 'shop'],
  ])('%s → %s', (host, subdomain) => {
    expect(hosts.subdomainOf(host)).toBe(subdomain);
  });

  it.each([undefined, '', 'localhost:8080', 'a.b.localhost', 'shop.example.com', '127.0.0.1:8080', '[::1]:8080', 'shoplocalhost'])(
    'refuses %s',
    (host) => {
      expect(hosts.subdomainOf(host)).toBeNull();
    },
  );

  it('honours a multi-label domain', () => {
    expect(new HostResolver('API.Example.com').subdomainOf('acme.api.example.com:443')).toBe('acme');
  });
});
