import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
type Secrets = { encryptionKey: string; serviceToken: string; file: string };
const { devSecrets, devSecretsFile } = require(join(root, 'scripts', 'lib', 'dev-secrets')) as {
  devSecrets(env: NodeJS.ProcessEnv, options?: { legacyFile?: string }): Secrets;
  devSecretsFile(env: NodeJS.ProcessEnv): string;
};

/** Development secrets live per machine, so a second clone (or a cleaned checkout) keeps its key. */
describe('development secrets', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fg-dev-secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const clone = (name: string) => join(dir, name, '.cache', 'dev-secrets.json');

  it('are made once under XDG_STATE_HOME (mode 600) and found again by any clone, also after its .cache is gone', () => {
    const env = { XDG_STATE_HOME: join(dir, 'state') };
    const first = devSecrets(env, { legacyFile: clone('one') });
    expect(first.file).toBe(join(dir, 'state', 'flowgate', 'dev-secrets.json'));
    expect(first.encryptionKey).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const second = devSecrets(env, { legacyFile: clone('two') });
    expect(second).toEqual(first);
  });

  it('adopt a checkout’s older .cache/dev-secrets.json, so an existing stack keeps decrypting', () => {
    const legacy = clone('old');
    mkdirSync(resolve(legacy, '..'), { recursive: true });
    writeFileSync(legacy, JSON.stringify({ encryptionKey: 'a'.repeat(64), serviceToken: 'b'.repeat(64) }));
    const adopted = devSecrets({ XDG_STATE_HOME: join(dir, 'state') }, { legacyFile: legacy });
    expect(adopted).toMatchObject({ encryptionKey: 'a'.repeat(64), serviceToken: 'b'.repeat(64) });
    expect(JSON.parse(readFileSync(adopted.file, 'utf8')).encryptionKey).toBe('a'.repeat(64));
  });

  it('honour FLOWGATE_DEV_SECRETS_FILE, and default to ~/.local/state without XDG_STATE_HOME', () => {
    const file = join(dir, 'elsewhere.json');
    expect(devSecrets({ FLOWGATE_DEV_SECRETS_FILE: file }, { legacyFile: clone('x') }).file).toBe(file);
    expect(devSecretsFile({ HOME: '/home/ada' })).toBe('/home/ada/.local/state/flowgate/dev-secrets.json');
  });

  it('fall back to the checkout when the state directory cannot be written', () => {
    const blocked = join(dir, 'blocked');
    writeFileSync(blocked, 'a file where a directory should be');
    const legacy = clone('ci');
    const secrets = devSecrets({ XDG_STATE_HOME: blocked }, { legacyFile: legacy });
    expect(secrets.file).toBe(legacy);
    expect(JSON.parse(readFileSync(legacy, 'utf8')).serviceToken).toBe(secrets.serviceToken);
  });
});
