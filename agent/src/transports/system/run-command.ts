import { spawn } from 'node:child_process';

/** What a finished command printed, and its exit code (null when it was killed). */
export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CommandOptions {
  /** Bytes for the command's standard input. */
  input?: Uint8Array;
  /** Killed after this many ms (default 15 s). */
  timeoutMs?: number;
  /** Extra environment variables (how values reach scripts without quoting). */
  env?: Record<string, string>;
}

/** Runs a program (never through a shell); injectable so spoolers can be tested on their own. */
export type CommandRunner = (
  command: string,
  args: readonly string[],
  options?: CommandOptions,
) => Promise<CommandResult>;

/** The default command timeout: the spooler's tools answer in milliseconds. */
export const COMMAND_TIMEOUT_MS = 15_000;

/**
 * Runs `command` with `args` in the C locale (the spooler tools' output is parsed), rejecting
 * only when the program cannot be started (ENOENT: not installed).
 */
export const runCommand: CommandRunner = (command, args, options = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...options.env, LC_ALL: 'C', LANG: 'C' },
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? COMMAND_TIMEOUT_MS);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    // A program that exits without reading its input must not fail us with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ? Buffer.from(options.input) : undefined);
  });
