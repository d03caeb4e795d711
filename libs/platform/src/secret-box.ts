import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for integration secrets at rest (PostgreSQL) and in the Redis publication.
 * Format: base64(iv) + ':' + base64(tag) + ':' + base64(ciphertext).
 */
export class SecretBox {
  private readonly key: Buffer;

  /** `keyMaterial`: 32 bytes as 64 hex chars or base64; anything else is hashed to 32 bytes. */
  constructor(keyMaterial: string) {
    if (/^[0-9a-f]{64}$/i.test(keyMaterial)) this.key = Buffer.from(keyMaterial, 'hex');
    else {
      const decoded = Buffer.from(keyMaterial, 'base64');
      this.key = decoded.length === 32 ? decoded : createHash('sha256').update(keyMaterial).digest();
    }
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64')).join(':');
  }

  decrypt(sealed: string): string {
    const [iv, tag, ciphertext] = sealed.split(':').map((part) => Buffer.from(part, 'base64'));
    if (!iv || !tag || !ciphertext) throw new Error('malformed sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}

/** SHA-256 hex of an API key or session token: the only form that is stored. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
