import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

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
  await run('/usr/sbin/cupsd').catch(() => undefined);
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
