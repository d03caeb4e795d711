import { AddressPolicy, parseCidrList } from './address-policy';

describe('AddressPolicy', () => {
  const policy = new AddressPolicy();

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:a9fe:a9fe::1', 'linkLocal'],
    ['::10.0.0.1', 'private'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
  ])('refuses %s (%s)', (address, reason) => {
    expect(policy.check(address)).toBe(reason);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    'allows the public address %s',
    (address) => {
      expect(policy.check(address)).toBeNull();
    },
  );

  it('allows operator ranges, including v4 addresses written as v6', () => {
    const allowing = new AddressPolicy(['127.0.0.0/8', '10.20.0.0/16']);
    expect(allowing.check('127.0.0.1')).toBeNull();
    expect(allowing.check('::ffff:127.0.0.1')).toBeNull();
    expect(allowing.check('10.20.3.4')).toBeNull();
    expect(allowing.check('10.21.3.4')).toBe('private');
    expect(allowing.check('::1')).toBe('loopback');
  });

  it('accepts single addresses and rejects malformed CIDR lists', () => {
    expect(new AddressPolicy(['::1']).check('::1')).toBeNull();
    expect(parseCidrList(' 127.0.0.0/8 , ::1/128,')).toEqual(['127.0.0.0/8', '::1/128']);
    expect(parseCidrList(undefined)).toEqual([]);
    expect(() => parseCidrList('127.0.0.0/8,localhost')).toThrow('"localhost" is not a CIDR range');
  });
});
