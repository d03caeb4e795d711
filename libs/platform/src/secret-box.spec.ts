import { SecretBox } from './secret-box';

const OLD = 'a'.repeat(64);
const NEW = 'b'.repeat(64);

describe('SecretBox', () => {
  it('opens what it sealed, with a fresh IV each time', () => {
    const box = new SecretBox(NEW);
    const one = box.encrypt('sk-secret');
    expect(one).not.toBe(box.encrypt('sk-secret'));
    expect(box.open(one)).toEqual({ plaintext: 'sk-secret', sealedWithPreviousKey: false });
    expect(box.decrypt(one)).toBe('sk-secret');
  });

  it('opens a secret sealed with a previous key and says so, so that it can be sealed again', () => {
    const sealedBefore = new SecretBox(OLD).encrypt('sk-secret');
    const rotated = new SecretBox(NEW, [OLD]);
    expect(rotated.open(sealedBefore)).toEqual({ plaintext: 'sk-secret', sealedWithPreviousKey: true });
    const resealed = rotated.encrypt('sk-secret');
    expect(new SecretBox(NEW).decrypt(resealed)).toBe('sk-secret');
  });

  it('answers null (open) or a message naming the key (decrypt) for a secret no known key sealed', () => {
    const sealed = new SecretBox(OLD).encrypt('sk-secret');
    const box = new SecretBox(NEW, [undefined, '']);
    expect(box.open(sealed)).toBeNull();
    expect(box.open('not:a:secret')).toBeNull();
    expect(box.open('garbage')).toBeNull();
    expect(() => box.decrypt(sealed)).toThrow(/FLOWGATE_ENCRYPTION_KEY/);
  });
});
