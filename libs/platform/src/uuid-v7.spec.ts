import { isUuid, uuidV7 } from './uuid-v7';

describe('uuidV7', () => {
  it('makes version-7 UUIDs that sort in the order they were made, within one millisecond too', () => {
    const ids = Array.from({ length: 5000 }, () => uuidV7(1_700_000_000_000));
    expect(ids.every(isUuid)).toBe(true);
    expect(ids.every((id) => id[14] === '7' && '89ab'.includes(id[19]!))).toBe(true);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('starts with the time in milliseconds', () => {
    expect(uuidV7(Date.UTC(2030, 0, 1)).replace(/-/g, '').slice(0, 12)).toBe(Date.UTC(2030, 0, 1).toString(16).padStart(12, '0'));
  });
});
