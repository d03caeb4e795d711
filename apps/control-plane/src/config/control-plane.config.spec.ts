import { ConfigError } from '@flowgate/platform';
import { loadControlPlaneConfig } from './control-plane.config';

describe('control-plane configuration', () => {
  it('has working defaults in development', () => {
    const config = loadControlPlaneConfig({ NODE_ENV: 'development' });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/flowgate',
      redisUrl: 'redis://127.0.0.1:6379',
      gatewayPublicUrl: 'http://{subdomain}.localhost:8080',
      sessionTtlHours: 168,
      corsOrigins: ['http://localhost:5173'],
      trustProxy: false,
      logLevel: 'info',
    });
    expect(config.encryptionKey).toHaveLength(64);
    expect(config.serviceToken.length).toBeGreaterThanOrEqual(16);
  });

  it('derives the public URL from GATEWAY_DOMAIN unless GATEWAY_PUBLIC_URL is given', () => {
    expect(loadControlPlaneConfig({ GATEWAY_DOMAIN: 'apis.example.com' }).gatewayPublicUrl).toBe('http://{subdomain}.apis.example.com:8080');
    expect(loadControlPlaneConfig({ GATEWAY_PUBLIC_URL: 'https://{subdomain}.example.com' }).gatewayPublicUrl).toBe('https://{subdomain}.example.com');
  });

  it('reads lists and numbers', () => {
    const config = loadControlPlaneConfig({ CONTROL_PLANE_CORS_ORIGINS: 'https://a.example, https://b.example', SESSION_TTL_HOURS: '12', CONTROL_PLANE_PORT: '4000' });
    expect(config).toMatchObject({ corsOrigins: ['https://a.example', 'https://b.example'], sessionTtlHours: 12, port: 4000 });
  });

  it('requires the encryption key and the service token outside development', () => {
    expect(() => loadControlPlaneConfig({ NODE_ENV: 'production' })).toThrow(/FLOWGATE_ENCRYPTION_KEY: is required when NODE_ENV=production/);
    expect(() => loadControlPlaneConfig({ NODE_ENV: 'production', FLOWGATE_ENCRYPTION_KEY: 'a'.repeat(64) })).toThrow(/FLOWGATE_SERVICE_TOKEN/);
    const config = loadControlPlaneConfig({ NODE_ENV: 'production', FLOWGATE_ENCRYPTION_KEY: 'a'.repeat(64), FLOWGATE_SERVICE_TOKEN: 't'.repeat(32) });
    expect(config).toMatchObject({ encryptionKey: 'a'.repeat(64), serviceToken: 't'.repeat(32) });
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL: must be a postgresql/],
    [{ REDIS_URL: 'nope' }, /REDIS_URL/],
    [{ CONTROL_PLANE_PORT: 'abc' }, /CONTROL_PLANE_PORT/],
    [{ GATEWAY_PUBLIC_URL: 'http://fixed.example' }, /GATEWAY_PUBLIC_URL: must be an http\(s\) URL containing \{subdomain\}/],
    [{ FLOWGATE_ENCRYPTION_KEY: 'short' }, /FLOWGATE_ENCRYPTION_KEY: must be at least 32 characters/],
    [{ SESSION_TTL_HOURS: '0' }, /SESSION_TTL_HOURS/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
  ])('names the malformed variable %j in one line', (environment, message) => {
    let error: unknown;
    try {
      loadControlPlaneConfig(environment);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('\n');
  });
});
