import { hostHeaderOf } from './host-header';

describe('hostHeaderOf', () => {
  it('finds the one Host header in any case, wherever it is', () => {
    expect(hostHeaderOf(['Host', 'a.localhost'])).toBe('a.localhost');
    expect(hostHeaderOf(['accept', '*/*', 'HOST', 'b.localhost:8080', 'x-test', '1'])).toBe('b.localhost:8080');
  });

  it('says undefined when there is none and null when there are several', () => {
    expect(hostHeaderOf(['accept', '*/*', 'hosts', 'x'])).toBeUndefined();
    expect(hostHeaderOf(['Host', 'a.localhost', 'accept', '*/*', 'host', 'b.localhost'])).toBeNull();
    expect(hostHeaderOf(['host', 'a.localhost', 'Host', 'a.localhost'])).toBeNull();
  });
});
