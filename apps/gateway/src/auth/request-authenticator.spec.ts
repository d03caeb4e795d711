import { bearerToken } from './request-authenticator';

describe('bearerToken', () => {
  it.each([
    [undefined, ''],
    ['', ''],
    ['Bearer', ''],
    ['Bearer   ', ''],
    ['Bearer fg_abc', 'fg_abc'],
    ['bearer  fg_abc ', 'fg_abc'],
    ['Basic dXNlcjpwYXNz', null],
    ['Bearerfg_abc', null],
  ])('%j → %j', (header, key) => {
    expect(bearerToken(header)).toBe(key);
  });
});
