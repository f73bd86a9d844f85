import { join } from 'node:path';
import { pino, type Logger } from 'pino';

export type AgentLogger = Logger;

/** Where the agent's log files live inside the data dir. */
export function logDir(dataDir: string): string {
  return join(dataDir, 'logs');
}

export interface LoggerOptions {
  dataDir: string;
  /** pino level; default `info` (or `LOG_LEVEL`). */
  level?: string;
  /** Also write to stdout; default true. */
  stdout?: boolean;
  /** Rotate the file at this size; default `10m`. Five rotated files are kept. */
  rotateSize?: string;
}

/**
 * The agent's log: JSON lines (pino) to `<data dir>/logs/agent.N.log`, rotated by size and day
 * with pino-roll, and to stdout. Secrets never go in: the device token is redacted by path.
 */
export function createLogger(options: LoggerOptions): AgentLogger {
  const targets: pino.TransportTargetOptions[] = [
    {
      target: 'pino-roll',
      options: {
        file: join(logDir(options.dataDir), 'agent'),
        size: options.rotateSize ?? '10m',
        frequency: 'daily',
        limit: { count: 5 },
        mkdir: true,
      },
    },
  ];
  if (options.stdout ?? true) targets.push({ target: 'pino/file', options: { destination: 1 } });
  return pino(
    {
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      redact: ['deviceToken', 'token', 'authorization', '*.deviceToken', '*.authorization'],
    },
    pino.transport({ targets }),
  );
}

/** A logger that writes nothing, for tests. */
export function silentLogger(): AgentLogger {
  return pino({ level: 'silent' });
}
