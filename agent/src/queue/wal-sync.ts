import { closeSync, fdatasync, openSync } from 'node:fs';

/**
 * Makes an SQLite WAL durable with one `fdatasync` shared by every commit made before it starts.
 *
 * The queue runs with `synchronous = NORMAL`: a commit is written to the WAL (so it survives the
 * agent's crash) but not synced. `flush()` resolves once a sync of the WAL file that started
 * after the call has finished, which makes every commit made before the call survive a power cut
 * too, as `synchronous = FULL` would, but off the event loop (libuv's thread pool). The sync
 * starts on the next `setImmediate`: commits made in the same turn of the event loop (a job
 * stored and then marked printing, several jobs arriving in one read) share it.
 */
export class WalSync {
  readonly #file: string;
  #fd: number | null = null;
  /** The sync that callers join: not started yet. */
  #next: Promise<void> | null = null;
  /** The sync in progress, if any. */
  #running: Promise<void> | null = null;
  #closed = false;

  /** `file`: the WAL file (`<database>-wal`). */
  constructor(file: string) {
    this.#file = file;
  }

  flush(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the queue is closed'));
    this.#next ??= this.#syncSoon();
    return this.#next;
  }

  async #syncSoon(): Promise<void> {
    await Promise.all([
      new Promise((resolve) => setImmediate(resolve)),
      this.#running?.catch(() => undefined),
    ]);
    // From here on a new flush() needs a new sync: its commits may come after this one started.
    this.#next = null;
    const running = this.#sync();
    this.#running = running;
    try {
      await running;
    } finally {
      if (this.#running === running) this.#running = null;
    }
  }

  #sync(): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('the queue is closed'));
    if (this.#fd === null) {
      try {
        this.#fd = openSync(this.#file, 'r+');
      } catch (error) {
        // No WAL file: nothing was written since the database was opened.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Promise.resolve();
        throw error;
      }
    }
    const fd = this.#fd;
    return new Promise((resolve, reject) =>
      fdatasync(fd, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Later flushes reject; the file is closed once the sync in progress (if any) is done. */
  close(): void {
    this.#closed = true;
    const closeFile = () => {
      if (this.#fd !== null) closeSync(this.#fd);
      this.#fd = null;
    };
    if (this.#running) void this.#running.catch(() => undefined).then(closeFile);
    else closeFile();
  }
}
