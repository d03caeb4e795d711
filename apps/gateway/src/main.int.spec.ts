import { freePort, spawnGateway } from '@flowgate/testing';

/** Boot: a bad variable or an unreachable dependency ends the process with one line and exit 1. */
describe('gateway process start-up', () => {
  const startFails = async (env: Record<string, string>) => {
    const error = await spawnGateway(env).then(
      async (started) => {
        await started.stop();
        throw new Error('the gateway started');
      },
      (failure: Error) => failure,
    );
    const [, code, output] = /exited with (\S+):\n([\s\S]*)$/.exec(error.message) ?? [];
    return { code, lines: (output ?? '').trim().split('\n') };
  };

  it('refuses malformed configuration with one line naming the variable', async () => {
    const { code, lines } = await startFails({ GATEWAY_PORT: 'eighty', FLOW_TIMEOUT_MS: '-5' });
    expect(code).toBe('1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^gateway: invalid configuration — .*GATEWAY_PORT.*FLOW_TIMEOUT_MS/);
  }, 30_000);

  it('refuses to start without the service token', async () => {
    const { code, lines } = await startFails({ FLOWGATE_SERVICE_TOKEN: '' });
    expect(code).toBe('1');
    expect(lines).toEqual([expect.stringContaining('FLOWGATE_SERVICE_TOKEN')]);
  }, 30_000);

  it('refuses to start when Redis or Kafka is unreachable', async () => {
    const port = await freePort();
    const redis = await startFails({ REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(redis.code).toBe('1');
    expect(redis.lines).toEqual([expect.stringMatching(/^gateway: Redis is not reachable at 127\.0\.0\.1:\d+ .*REDIS_URL/)]);
    const kafka = await startFails({ KAFKA_BROKERS: `127.0.0.1:${port}` });
    expect(kafka.code).toBe('1');
    expect(kafka.lines).toEqual([expect.stringMatching(/^gateway: Kafka is not reachable .*KAFKA_BROKERS/)]);
  }, 30_000);
});
