import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { logDir } from '../logs/logger.js';
import { redactText } from '../logs/export.js';

/** One line of the agent's log as the window shows it. */
export interface LogLine {
  /** Epoch ms. */
  time: number;
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';
  message: string;
  /** The line's other fields as JSON text (printer, jobId, error, ...), secrets redacted. */
  detail: string | null;
}

const LEVELS: Record<number, LogLine['level']> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * The last `count` lines of the agent's log files (pino JSON lines, newest file last), oldest
 * first, with the device token and anything shaped like a key redacted.
 */
export function tailLog(dataDir: string, count: number, secrets: string[] = []): LogLine[] {
  const dir = logDir(dataDir);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b));
  const lines: string[] = [];
  for (let i = files.length - 1; i >= 0 && lines.length < count; i--) {
    const text = readFileSync(files[i]!, 'utf8');
    const fileLines = text.split('\n').filter((l) => l.trim().length > 0);
    lines.unshift(...fileLines.slice(-(count - lines.length)));
  }
  return lines.map((line) => parseLine(redactText(line, secrets)));
}

function parseLine(line: string): LogLine {
  try {
    const {
      time,
      level,
      msg,
      pid: _pid,
      hostname: _host,
      ...rest
    } = JSON.parse(line) as Record<string, unknown>;
    return {
      time: typeof time === 'number' ? time : 0,
      level: LEVELS[typeof level === 'number' ? level : 30] ?? 'info',
      message: typeof msg === 'string' ? msg : '',
      detail: Object.keys(rest).length > 0 ? JSON.stringify(rest) : null,
    };
  } catch {
    return { time: 0, level: 'info', message: line, detail: null };
  }
}
