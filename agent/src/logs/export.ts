import { createWriteStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { arch, cpus, freemem, hostname, platform, release, totalmem, uptime } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import { loadConfig, readDeviceToken } from '../config/config-store.js';
import { JobQueue } from '../queue/job-queue.js';
import { logDir } from './logger.js';

export const REDACTED = '[REDACTED]';

/** Keys whose values are secrets, wherever they appear in the configuration or a log line. */
const SECRET_KEY =
  /token|secret|passw|authorization|api[-_]?key|private[-_]?key|cookie|credential|activation[-_]?code/i;
/** Printwire secrets and other credentials by their shapes, wherever they appear in text. */
const SECRET_PATTERNS: Array<[RegExp, string]> = [
  // API keys, device tokens, webhook signing secrets.
  [/pw_(live|test)_[A-Za-z0-9_-]+/g, REDACTED],
  [/pwd_[A-Za-z0-9_-]+/g, REDACTED],
  [/whsec_[A-Za-z0-9_-]+/g, REDACTED],
  [/Bearer\s+[A-Za-z0-9._~+/-]+=*/gi, REDACTED],
  // A password in a URL (https://user:password@host).
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/:@"']+:[^\s/@"']+@/gi, `$1${REDACTED}@`],
  // key=value and "key": "value" in text (query strings, headers, messages).
  [
    /\b([\w-]*(?:token|secret|passw(?:or)?d?|api[-_]?key|activation[-_]?code)[\w-]*)(["']?\s*[:=]\s*["']?)(?!\[REDACTED\])[^\s"'&,;}]+/gi,
    `$1$2${REDACTED}`,
  ],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, REDACTED],
];

/** Replaces every value under a secret-looking key, recursively. */
export function redactObject(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactObject);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && inner !== null ? REDACTED : redactObject(inner);
  }
  return out;
}

/** Removes known secrets (the device token itself, and anything shaped like a key) from text. */
export function redactText(text: string, secrets: string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.split(secret).join(REDACTED);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * A log file: each JSON line (pino's) has the values under secret keys redacted first, then
 * every line goes through `redactText`.
 */
export function redactLog(text: string, secrets: string[]): string {
  const lines = text.split('\n').map((line) => {
    if (!line.startsWith('{')) return line;
    try {
      return JSON.stringify(redactObject(JSON.parse(line)));
    } catch {
      return line;
    }
  });
  return redactText(lines.join('\n'), secrets);
}

function systemFacts(agentVersion: string): Record<string, unknown> {
  return {
    agentVersion,
    node: process.version,
    os: platform(),
    release: release(),
    arch: arch(),
    hostname: hostname(),
    cpus: cpus().length,
    memoryTotalBytes: totalmem(),
    memoryFreeBytes: freemem(),
    uptimeSeconds: Math.round(uptime()),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    exportedAt: new Date().toISOString(),
  };
}

/**
 * Writes a support bundle: the agent's logs, its configuration with every secret redacted, a
 * queue summary (counts and unconfirmed results, no job content) and system facts. The device
 * token is never included, and is scrubbed from the logs should it appear there.
 */
export async function exportLogs(options: {
  dataDir: string;
  out: string;
  agentVersion: string;
}): Promise<{ files: string[] }> {
  const { dataDir } = options;
  const token = readDeviceToken(dataDir);
  const secrets = token ? [token] : [];
  const zip = new yazl.ZipFile();
  const files: string[] = [];
  const add = (name: string, text: string) => {
    zip.addBuffer(Buffer.from(redactText(text, secrets)), name);
    files.push(name);
  };

  const dir = logDir(dataDir);
  if (existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isFile()) {
        add(`logs/${name}`, redactLog(readFileSync(path, 'utf8'), secrets));
      }
    }
  }
  const config = loadConfig(dataDir);
  add(
    'config.json',
    JSON.stringify(
      { ...(redactObject(config) as object), deviceToken: token ? REDACTED : null },
      null,
      2,
    ),
  );
  const queuePath = join(dataDir, 'queue.db');
  if (existsSync(queuePath)) {
    const queue = new JobQueue(queuePath);
    try {
      const unconfirmed = queue
        .outbox()
        .map((m) =>
          m.type === 'job.local'
            ? { type: m.type, jobId: m.job.id, at: m.job.updatedAt }
            : { type: m.type, jobId: m.jobId, at: m.at },
        );
      add(
        'queue-summary.json',
        JSON.stringify({ ...queue.summary(), unconfirmedMessages: unconfirmed }, null, 2),
      );
    } finally {
      queue.close();
    }
  }
  add('system.json', JSON.stringify(systemFacts(options.agentVersion), null, 2));
  const output = createWriteStream(options.out, { mode: 0o600 });
  zip.outputStream.pipe(output);
  zip.end();
  await finished(output);
  return { files };
}
