import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Two connected pseudo-terminals made by `socat -d -d pty,raw,echo=0 pty,raw,echo=0` (Debian
 * `socat`): what is written to one is read from the other, like the two ends of a null-modem
 * cable. For tests of the serial transport.
 */
export class PtyPair {
  readonly agentPath: string;
  readonly printerPath: string;
  readonly #socat: ChildProcess;

  private constructor(socat: ChildProcess, agentPath: string, printerPath: string) {
    this.#socat = socat;
    this.agentPath = agentPath;
    this.printerPath = printerPath;
  }

  /** Starts socat and waits until both terminals exist. */
  static async start(timeoutMs = 5000): Promise<PtyPair> {
    const socat = spawn('socat', ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const paths: string[] = [];
    let log = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        socat.kill();
        reject(new Error(`socat made no pty pair within ${timeoutMs} ms: ${log}`));
      }, timeoutMs);
      socat.once('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`socat cannot be started (Debian package socat): ${error.message}`));
      });
      socat.stderr!.setEncoding('utf8');
      socat.stderr!.on('data', (text: string) => {
        log += text;
        for (const match of text.matchAll(/PTY is (\S+)/g)) paths.push(match[1]!);
        if (/starting data transfer loop/.test(log) && paths.length >= 2) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return new PtyPair(socat, paths[0]!, paths[1]!);
  }

  /** Ends socat: both terminals vanish, as when a cable is pulled or an adapter unplugged. */
  async stop(): Promise<void> {
    if (this.#socat.exitCode !== null || this.#socat.signalCode !== null) return;
    const exited = once(this.#socat, 'exit');
    this.#socat.kill('SIGTERM');
    await exited;
  }
}
