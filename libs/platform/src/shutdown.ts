import type { Logger } from 'pino';

type Hook = () => Promise<unknown> | unknown;

/**
 * Graceful shutdown on SIGTERM/SIGINT: runs the hooks in order (stop accepting, finish
 * in-flight work, flush, close clients), then exits 0. A second signal or the time limit
 * forces exit 1.
 */
export function installShutdown(logger: Logger, hooks: Hook[], timeoutMs = 15000): () => Promise<void> {
  let stopping: Promise<void> | null = null;
  const run = (): Promise<void> => {
    if (stopping) return stopping;
    stopping = (async () => {
      const timer = setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      for (const hook of hooks) {
        try {
          await hook();
        } catch (error) {
          logger.error({ err: error }, 'shutdown step failed');
        }
      }
      clearTimeout(timer);
    })();
    return stopping;
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.exit(1);
    }
    logger.info({ signal }, 'shutting down');
    void run().then(() => process.exit(0));
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return run;
}
