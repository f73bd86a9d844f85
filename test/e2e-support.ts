/**
 * End-to-end helpers: the cloud and the agent started from their CLIs as real processes, the
 * REST API called over HTTP, and polling with a deadline instead of sleeps.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import type { JobResource } from '@printwire/cloud';

const run = promisify(execFile);
const CLOUD_BIN = new URL('../cloud/bin/printwire-cloud.mjs', import.meta.url).pathname;
const AGENT_BIN = new URL('../agent/bin/printwire-agent.mjs', import.meta.url).pathname;

/** A job as GET /v1/jobs/{id} answers it (with its events). */
export type JobView = Required<JobResource>;

export interface Bootstrap {
  userId: string;
  orgId: string;
  liveKey: string;
  testKey: string;
  activationCode: string;
  /** The owner's sign-in (the dashboard API). */
  email: string;
  password: string;
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A TCP port that was free a moment ago (the cloud must come back on the same one). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Polls `probe` every `intervalMs` until it returns something other than undefined. */
export async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 10_000, intervalMs = 10 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export class CloudProcess {
  private output = '';

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static env(dataDir: string, port: number, extra: Record<string, string> = {}) {
    return {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
      AGENT_HEARTBEAT_INTERVAL_MS: '1000',
      AGENT_LIVENESS_MARGIN_MS: '500',
      ...extra,
    };
  }

  static async bootstrap(env: NodeJS.ProcessEnv, org = 'E2E shop'): Promise<Bootstrap> {
    const email = `owner-${Date.now()}@example.com`;
    const password = 'a long e2e password';
    const { stdout } = await run(
      process.execPath,
      [CLOUD_BIN, 'admin', 'bootstrap', '--email', email].concat([
        '--password',
        password,
        '--org',
        org,
        '--plan',
        'business',
        '--json',
      ]),
      { env },
    );
    return { ...(JSON.parse(stdout) as Bootstrap), email, password };
  }

  /** Signs the bootstrapped owner in to the dashboard API: its access token (a Bearer token). */
  async login(org: Bootstrap): Promise<string> {
    const res = await this.call('', 'POST', '/auth/login', {
      email: org.email,
      password: org.password,
    });
    if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as { accessToken: string }).accessToken;
  }

  static async start(env: NodeJS.ProcessEnv): Promise<CloudProcess> {
    const child = spawn(process.execPath, [CLOUD_BIN, 'serve'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const lines = createInterface({ input: child.stdout! });
    const url = await new Promise<string>((resolve, reject) => {
      lines.on('line', (line) => {
        output += `${line}\n`;
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) resolve(entry.url);
        } catch {
          // not a log line
        }
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}\n${output}`)));
    });
    const cloud = new CloudProcess(child, url);
    cloud.output = output;
    lines.on('line', (line) => (cloud.output += `${line}\n`));
    child.stderr!.on('data', (c: Buffer) => (cloud.output += c.toString()));
    return cloud;
  }

  logs(): string {
    return this.output;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = once(this.child, 'exit');
    this.child.kill(signal);
    const [code] = (await exited) as [number | null];
    return code;
  }

  /** Calls the REST API with a key. */
  async call(
    key: string,
    method: string,
    path: string,
    body?: unknown,
    // Response bodies are whatever JSON the API answered; tests read them loosely.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }
}

export class AgentProcess {
  private output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (c: Buffer) => (this.output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.exited = once(child, 'exit').then(([code]) => code as number | null);
  }

  /** `printwire-agent start ARGS`; `env` adds to this process's environment. */
  static start(args: string[], env: Record<string, string> = {}): AgentProcess {
    const child = spawn(process.execPath, [AGENT_BIN, 'start', ...args, '--no-local-server'], {
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new AgentProcess(child);
  }

  /** Runs another `printwire-agent` command to its end; rejects when it fails. */
  static async command(args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [AGENT_BIN, ...args]);
    return stdout;
  }

  logs(): string {
    return this.output;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill(signal);
    await this.exited;
  }
}
