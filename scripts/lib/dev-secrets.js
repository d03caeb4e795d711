// Development secrets (the encryption key of integration secrets and the service token),
// generated once per machine and user, outside the checkout: $FLOWGATE_DEV_SECRETS_FILE, else
// $XDG_STATE_HOME/flowgate/dev-secrets.json (~/.local/state/flowgate/dev-secrets.json). A second
// clone, or the same clone after `git clean -xdf`, then finds the key that sealed the
// integration secrets already in PostgreSQL. A checkout's older `.cache/dev-secrets.json` is
// adopted on first use. To start over, delete the file: the control plane keeps running and
// shows integrations saved under the old key as needing a new secret.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const LEGACY_FILE = path.join(root, '.cache', 'dev-secrets.json');

function devSecretsFile(env) {
  if (env.FLOWGATE_DEV_SECRETS_FILE) return path.resolve(env.FLOWGATE_DEV_SECRETS_FILE);
  const state = env.XDG_STATE_HOME || path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(state, 'flowgate', 'dev-secrets.json');
}

function read(file) {
  try {
    const secrets = JSON.parse(fs.readFileSync(file, 'utf8'));
    return secrets.encryptionKey && secrets.serviceToken ? { encryptionKey: secrets.encryptionKey, serviceToken: secrets.serviceToken } : null;
  } catch {
    return null; // missing or unreadable
  }
}

/** Writes `secrets` unless the file exists by now (two first runs at once agree on the first). */
function writeOnce(file, secrets) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if (error.code !== 'EEXIST') throw error;
  }
  return read(file) ?? secrets;
}

/**
 * `{encryptionKey, serviceToken, file}`: the machine's development secrets, made on first use.
 * `legacyFile` is the checkout's old location (tests point it elsewhere).
 */
function devSecrets(env, { legacyFile = LEGACY_FILE } = {}) {
  const file = devSecretsFile(env);
  const found = read(file);
  if (found) return { ...found, file };
  const secrets = read(legacyFile) ?? {
    encryptionKey: crypto.randomBytes(32).toString('hex'),
    serviceToken: crypto.randomBytes(32).toString('hex'),
  };
  try {
    return { ...writeOnce(file, secrets), file };
  } catch {
    // No writable home (some CI sandboxes): keep them in the checkout, as before.
    return { ...writeOnce(legacyFile, secrets), file: legacyFile };
  }
}

module.exports = { devSecrets, devSecretsFile };
