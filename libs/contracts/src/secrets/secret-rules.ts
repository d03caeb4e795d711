/** `{secrets.NAME}`: upper case, digits and `_`, starting with a letter. */
export const SECRET_NAME_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;
export const MAX_SECRETS_PER_PROJECT = 100;
/** A value is 1 B – 8 KiB of text (UTF-8 bytes). */
export const MAX_SECRET_VALUE_BYTES = 8 * 1024;
/** Shorter values are not masked: `[secret:X]` in place of every "ab" would garble the text and reveal the value by its places. */
export const MIN_MASKED_LENGTH = 4;
