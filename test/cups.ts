import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const runIn = promisify(execFile);
const run = (command: string, args: string[]) => runIn(command, args);

/** The backend CUPS runs for our test queues: it writes each job to a file. */
export const CUPS_TEST_BACKEND = '/usr/lib/cups/backend/printwire-file';

/*
 * `printwire-file:/DIR` writes job N to DIR/job-N.out, after DIR/hold is gone. A backend of mode 0755 runs as the
 * unprivileged `lp` user, so DIR is world-writable. Without arguments it lists itself, as
 * `lpinfo -v` asks every backend to.
 */
const BACKEND_SCRIPT = `#!/bin/sh
if [ $# -eq 0 ]; then
  echo 'direct printwire-file "Unknown" "Printwire test file backend"'
  exit 0
fi
dir="\${DEVICE_URI#printwire-file:}"
# A test holds jobs in the processing state while the file "hold" exists.
while [ -e "$dir/hold" ]; do sleep 0.05; done
out="$dir/job-$1.tmp"
if [ $# -ge 6 ]; then cat "$6" > "$out"; else cat > "$out"; fi
echo "$4" > "$dir/job-$1.copies"
mv "$out" "$dir/job-$1.out"
exit 0
`;

/** A CUPS queue whose printed jobs land as files in `dir`. */
export interface CupsTestQueue {
  name: string;
  dir: string;
  /** Waits for the file of CUPS job `jobId` and returns its bytes. */
  output(jobId: number, timeoutMs?: number): Promise<Buffer>;
  /** The copies CUPS asked the backend for, for job `jobId` (read after `output`). */
  copies(jobId: number): Promise<number>;
  /** The jobs written so far, by CUPS job id. */
  jobs(): Promise<number[]>;
  /** Jobs stay processing (the backend waits) until `release`. */
  hold(): Promise<void>;
  release(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

async function schedulerRunning(): Promise<boolean> {
  try {
    const { stdout } = await run('lpstat', ['-r']);
    return /scheduler is running/.test(stdout);
  } catch {
    return false;
  }
}

async function ensureScheduler(): Promise<void> {
  if (await schedulerRunning()) return;
  if (!existsSync('/usr/sbin/cupsd')) throw new Error('cupsd is not installed (Debian: cups)');
  // Test files run in parallel: another may be starting cupsd right now, and the second cupsd
  // then fails to bind. Either way, wait for a running scheduler.
  await run('/usr/sbin/cupsd', []).catch(() => undefined);
  for (let i = 0; i < 100; i++) {
    if (await schedulerRunning()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('cupsd did not start within 5 s');
}

async function installBackend(): Promise<void> {
  let current = '';
  try {
    current = await readFile(CUPS_TEST_BACKEND, 'utf8');
  } catch {
    // not installed yet
  }
  if (current === BACKEND_SCRIPT) return;
  // Through a temporary name: a job of a parallel test file may be running the backend.
  const tmp = `${CUPS_TEST_BACKEND}.${process.pid}.tmp`;
  await writeFile(tmp, BACKEND_SCRIPT, { mode: 0o755 });
  await chmod(tmp, 0o755);
  await rename(tmp, CUPS_TEST_BACKEND);
}

/**
 * Sets up a raw CUPS queue `name` (starting cupsd when it is not running) whose backend writes
 * every job to a file. Needs root and Debian's `cups cups-client cups-bsd`.
 */
export async function createCupsQueue(name: string): Promise<CupsTestQueue> {
  await ensureScheduler();
  await installBackend();
  return addQueue(name, process.env);
}

/** A raw queue whose jobs land in a new folder, on the CUPS that `env` (CUPS_SERVER) names. */
async function addQueue(name: string, env: NodeJS.ProcessEnv): Promise<CupsTestQueue> {
  const run = (command: string, args: string[]) => runIn(command, args, { env });
  const dir = await mkdtemp(join(tmpdir(), 'printwire-cups-'));
  await chmod(dir, 0o777);
  // `-m raw` is deprecated in CUPS 2.4 but still the way to get a queue without filters.
  await run('lpadmin', ['-p', name, '-E', '-v', `printwire-file:${dir}`, '-m', 'raw']);
  const jobs = async () =>
    (await readdir(dir))
      .map((f) => /^job-(\d+)\.out$/.exec(f)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number);
  return {
    name,
    dir,
    jobs,
    async output(jobId, timeoutMs = 10_000) {
      const path = join(dir, `job-${jobId}.out`);
      const until = Date.now() + timeoutMs;
      while (!existsSync(path)) {
        if (Date.now() > until) throw new Error(`CUPS job ${jobId} wrote no output`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return readFile(path);
    },
    async copies(jobId) {
      return Number((await readFile(join(dir, `job-${jobId}.copies`), 'utf8')).trim());
    },
    async hold() {
      await writeFile(join(dir, 'hold'), '');
    },
    async release() {
      await rm(join(dir, 'hold'), { force: true });
    },
    async stop() {
      await run('cupsdisable', [name]);
    },
    async start() {
      await run('cupsenable', [name]);
    },
    async remove() {
      await rm(join(dir, 'hold'), { force: true });
      await run('cancel', ['-a', name]).catch(() => undefined);
      await run('lpadmin', ['-x', name]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The queue for a test file, or null with the reason when CUPS cannot be set up here and `CI`
 * is not set (the tests then skip with that reason). Under CI a missing CUPS throws.
 */
export async function cupsQueueForTests(
  name: string,
): Promise<{ queue: CupsTestQueue | null; skipReason: string }> {
  try {
    return { queue: await createCupsQueue(name), skipReason: '' };
  } catch (error) {
    if (process.env.CI) throw error;
    return { queue: null, skipReason: `CUPS cannot be set up here: ${(error as Error).message}` };
  }
}

/**
 * A cupsd of the test's own: its own port on 127.0.0.1 and its own folders (configuration,
 * spool, cache, logs, and programs: the system's filters with our file backend), never the
 * system's scheduler or queues. Programs talk to it through `CUPS_SERVER` (see `env`).
 */
export class PrivateCups {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  /** `CUPS_SERVER` for the CUPS tools (and the agent's IPP requests) to reach this cupsd. */
  get env(): { CUPS_SERVER: string } {
    return { CUPS_SERVER: `127.0.0.1:${this.port}` };
  }

  static async start(): Promise<PrivateCups> {
    if (!existsSync('/usr/sbin/cupsd')) throw new Error('cupsd is not installed (Debian: cups)');
    const dir = await mkdtemp(join(tmpdir(), 'printwire-cupsd-'));
    // Backends and filters run as `lp`: they must reach the programs and the temporary folder.
    await chmod(dir, 0o755);
    for (const sub of ['conf', 'spool', 'cache', 'state', 'log', 'bin', 'bin/backend']) {
      await mkdir(join(dir, sub), { mode: 0o755 });
    }
    await mkdir(join(dir, 'tmp'));
    await chmod(join(dir, 'tmp'), 0o1777);
    for (const sub of ['cgi-bin', 'daemon', 'driver', 'filter', 'monitor', 'notifier']) {
      await symlink(join('/usr/lib/cups', sub), join(dir, 'bin', sub));
    }
    await writeFile(join(dir, 'bin/backend/printwire-file'), BACKEND_SCRIPT, { mode: 0o755 });
    await chmod(join(dir, 'bin/backend/printwire-file'), 0o755);
    const port = await freeTcpPort();
    await writeFile(
      join(dir, 'conf/cupsd.conf'),
      [
        `Listen 127.0.0.1:${port}`,
        'LogLevel warn',
        'WebInterface No',
        'Browsing No',
        'DefaultAuthType None',
        '<Location />',
        '  Order allow,deny',
        '  Allow all',
        '</Location>',
        '<Policy default>',
        '  <Limit All>',
        '    Order deny,allow',
        '  </Limit>',
        '</Policy>',
        '',
      ].join('\n'),
    );
    await writeFile(
      join(dir, 'conf/cups-files.conf'),
      [
        `ServerRoot ${dir}/conf`,
        `RequestRoot ${dir}/spool`,
        `CacheDir ${dir}/cache`,
        `StateDir ${dir}/state`,
        `TempDir ${dir}/tmp`,
        `ServerBin ${dir}/bin`,
        `ErrorLog ${dir}/log/error_log`,
        `AccessLog ${dir}/log/access_log`,
        `PageLog ${dir}/log/page_log`,
        'SystemGroup root',
        'Sandboxing Relaxed',
        '',
      ].join('\n'),
    );
    const child = spawn(
      '/usr/sbin/cupsd',
      ['-f', '-c', join(dir, 'conf/cupsd.conf'), '-s', join(dir, 'conf/cups-files.conf')],
      { stdio: 'ignore' },
    );
    const cups = new PrivateCups(dir, port, child);
    for (let i = 0; i < 200; i++) {
      if (child.exitCode !== null) break;
      const { stdout } = await runIn('lpstat', ['-r'], { env: { ...process.env, ...cups.env } });
      if (/scheduler is running/.test(stdout)) return cups;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await cups.stop();
    const log = await readFile(join(dir, 'log/error_log'), 'utf8').catch(() => '');
    throw new Error(`the private cupsd did not start within 5 s\n${log}`);
  }

  /** A raw queue `name` on this cupsd whose jobs land as files (see `CupsTestQueue`). */
  addQueue(name: string): Promise<CupsTestQueue> {
    return addQueue(name, { ...process.env, ...this.env });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = once(this.child, 'exit');
      this.child.kill('SIGTERM');
      await exited;
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
async function freeTcpPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A private cupsd for a test file, or null with the reason when one cannot be started here and
 * `CI` is not set (the tests then skip with that reason). Under CI a failure throws.
 */
export async function privateCupsForTests(): Promise<{
  cups: PrivateCups | null;
  skipReason: string;
}> {
  try {
    return { cups: await PrivateCups.start(), skipReason: '' };
  } catch (error) {
    if (process.env.CI) throw error;
    return { cups: null, skipReason: `no private cupsd here: ${(error as Error).message}` };
  }
}
