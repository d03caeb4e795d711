import { ConfigError } from './config';
import { DependencyError } from './dependencies';

/**
 * Start-up failures end the process with one line that names the problem and the fix —
 * never a stack trace. Anything unexpected is still one line, plus the error's message.
 */
export function exitOnStartupError(service: string, error: unknown): never {
  const known = error instanceof ConfigError || error instanceof DependencyError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${service}: ${known ? message : `failed to start — ${message}`}\n`);
  process.exit(1);
}
