import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** What a sealed secret holds, and whether it was sealed with a previous key (re-seal it). */
export interface OpenedSecret {
  plaintext: string;
  sealedWithPreviousKey: boolean;
}

/** `keyMaterial`: 32 bytes as 64 hex chars or base64; anything else is hashed to 32 bytes. */
function keyFrom(keyMaterial: string): Buffer {
  if (/^[0-9a-f]{64}$/i.test(keyMaterial)) return Buffer.from(keyMaterial, 'hex');
  const decoded = Buffer.from(keyMaterial, 'base64');
  return decoded.length === 32 ? decoded : createHash('sha256').update(keyMaterial).digest();
}

function decryptWith(key: Buffer, sealed: string): string | null {
  const [iv, tag, ciphertext] = sealed.split(':').map((part) => Buffer.from(part, 'base64'));
  if (!iv || !tag || !ciphertext) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    // GCM authentication failed: another key sealed it (or the text was altered).
    return null;
  }
}

/**
 * AES-256-GCM for integration secrets at rest (PostgreSQL) and in the Redis publication.
 * Format: base64(iv) + ':' + base64(tag) + ':' + base64(ciphertext). Seals with the current
 * key; opens with the current key or, during a key rotation, a previous one
 * (FLOWGATE_ENCRYPTION_KEY_PREVIOUS).
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly previousKeys: Buffer[];

  constructor(keyMaterial: string, previousKeyMaterial: Array<string | undefined> = []) {
    this.key = keyFrom(keyMaterial);
    this.previousKeys = previousKeyMaterial.filter((material): material is string => Boolean(material)).map(keyFrom);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64')).join(':');
  }

  /** The secret, or null when no key this process knows sealed it (the key changed). */
  open(sealed: string): OpenedSecret | null {
    const plaintext = decryptWith(this.key, sealed);
    if (plaintext !== null) return { plaintext, sealedWithPreviousKey: false };
    for (const key of this.previousKeys) {
      const previous = decryptWith(key, sealed);
      if (previous !== null) return { plaintext: previous, sealedWithPreviousKey: true };
    }
    return null;
  }

  /** Like `open`, but throws when the secret cannot be decrypted. */
  decrypt(sealed: string): string {
    const opened = this.open(sealed);
    if (!opened) throw new Error('the secret cannot be decrypted with FLOWGATE_ENCRYPTION_KEY (or FLOWGATE_ENCRYPTION_KEY_PREVIOUS): it was sealed with another key');
    return opened.plaintext;
  }
}

/** SHA-256 hex of an API key or session token: the only form that is stored. */
export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
