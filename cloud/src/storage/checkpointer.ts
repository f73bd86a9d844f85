/**
 * WAL checkpoints off the event loop. SQLite checkpoints from the connection that commits, by
 * default whenever the WAL passes 1000 pages: the commit that crosses the line copies the WAL into
 * the database file and syncs it, holding the event loop for that long (measured under the API
 * benchmark: 5-26 ms, a few times a second, while every request in flight waited).
 *
 * With the checkpointer the writer's automatic checkpoints are off and a worker thread with its own
 * connection runs PASSIVE checkpoints instead: every `everyCommits` commits (about as often as
 * SQLite's own), and once writes have paused for `idleMs` (so a WAL left by a burst is copied even
 * when no more writes come), never more often: each checkpoint syncs the database file, on the
 * same disk as the syncs that requests wait for.
 * A PASSIVE checkpoint never blocks the writer or the readers (WAL mode lets them run side by
 * side), and its syncs happen on the worker's thread.
 *
 * SQLite starts the WAL over only when a write begins with every frame already copied. Under a
 * steady stream of commits that never happens by itself (each checkpoint ends with new frames
 * behind it), so once the WAL holds `restartFrames` frames the group committer waits, before its
 * next batch, for one more checkpoint: that one copies only what came since the last, and the
 * batch after it starts the WAL over. Writes wait for that moment; the event loop does not.
 * If the worker dies, the writer's automatic checkpoints are switched back on, so the WAL never
 * grows without bound.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

export interface CheckpointResult {
  /** Frames in the WAL. */
  log: number;
  /** Frames copied into the database file (all of them unless a reader still needed some). */
  checkpointed: number;
}

export interface CheckpointerOptions {
  /** A checkpoint after this many commits. Default 64 (a group commit writes ~15 pages). */
  everyCommits?: number;
  /** A checkpoint once no commit came for this long. Default 1000 ms. */
  idleMs?: number;
  /**
   * WAL size, in frames (pages), from which the next batch waits for a checkpoint so that the WAL
   * starts over. Default 4096 (16 MB with 4 KB pages).
   */
  restartFrames?: number;
  /** Told of every checkpoint (tests). */
  onCheckpoint?: (result: CheckpointResult) => void;
  /** Told when the worker fails; the writer checkpoints by itself again from then on. */
  onFailure?: (error: Error) => void;
}

/** SQLite's own default, restored on the writer when the worker is gone. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

// Plain JavaScript run as the worker's script (eval), so the worker needs no TypeScript loader.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [row] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ log: row.log, checkpointed: row.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
parentPort.postMessage({ ready: true });
`;

type Reply = { ready: true } | CheckpointResult | { error: string };

export class WalCheckpointer {
  private readonly worker: Worker;
  private readonly everyCommits: number;
  private readonly idleMs: number;
  private readonly restartFrames: number;
  /** The WAL reached `restartFrames` at the last checkpoint: the next batch waits for one. */
  private restartWanted = false;
  private commits = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The checkpoint running now, and whether another was asked for meanwhile. */
  private running: Promise<CheckpointResult> | undefined;
  private again = false;
  private waiting: Array<{ resolve: (r: CheckpointResult) => void; reject: (e: Error) => void }> =
    [];
  private failed: Error | undefined;
  private closing = false;

  constructor(
    file: string,
    private readonly writer: BetterSqlite3.Database,
    private readonly options: CheckpointerOptions = {},
  ) {
    this.everyCommits = options.everyCommits ?? 64;
    this.idleMs = options.idleMs ?? 1000;
    this.restartFrames = options.restartFrames ?? 4096;
    writer.pragma('wal_autocheckpoint = 0');
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver: createRequire(import.meta.url).resolve('better-sqlite3') },
      // The worker's script is plain JavaScript: it needs none of the parent's loaders.
      execArgv: [],
    });
    // Idle, the worker does not keep the process alive; while it answers a request it does.
    this.worker.unref();
    this.worker.on('message', (reply: Reply) => {
      if ('ready' in reply) return;
      const waiter = this.waiting.shift();
      if (this.waiting.length === 0 && !this.closing) this.worker.unref();
      if ('error' in reply) waiter?.reject(new Error(`WAL checkpoint failed: ${reply.error}`));
      else {
        if (reply.log >= this.restartFrames) this.restartWanted = true;
        waiter?.resolve(reply);
        this.options.onCheckpoint?.(reply);
      }
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => {
      if (!this.closing) this.fail(new Error(`the WAL checkpoint worker exited (code ${code})`));
    });
  }

  /** Called after each commit. */
  committed(): void {
    if (this.failed || this.closing) return;
    this.commits++;
    if (this.commits >= this.everyCommits) {
      this.request();
      return;
    }
    // Restarted by every commit: it fires once writes have paused for idleMs.
    if (this.idleTimer) {
      this.idleTimer.refresh();
      return;
    }
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.commits > 0) this.request();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /**
   * Called by the group committer before each batch: a promise to wait for when the WAL should
   * start over (see above), else undefined.
   */
  beforeBatch(): Promise<void> | undefined {
    if (!this.restartWanted || this.failed || this.closing) return undefined;
    this.restartWanted = false;
    const previous = this.running ?? Promise.resolve();
    // The checkpoint running now may have started before the last commit: run one after it.
    return previous
      .catch(() => undefined)
      .then(() => this.checkpoint())
      .then(
        () => undefined,
        () => undefined,
      );
  }

  /** Runs a checkpoint now (after the one running, if any). */
  checkpoint(): Promise<CheckpointResult> {
    if (this.failed) return Promise.reject(this.failed);
    this.commits = 0;
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.ref();
      this.worker.postMessage('checkpoint');
    });
  }

  /** Stops the worker; the writer checkpoints by itself again (and at its close, as usual). */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    clearTimeout(this.idleTimer);
    await this.running?.catch(() => undefined);
    if (!this.failed) {
      const exited = new Promise((resolve) => this.worker.once('exit', resolve));
      this.worker.ref();
      this.worker.postMessage('close');
      await exited;
    }
    this.restoreWriter();
  }

  /** One checkpoint at a time: a request while one runs makes one more run after it. */
  private request(): void {
    this.commits = 0;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.checkpoint();
    void this.running
      .catch(() => undefined)
      .then(() => {
        this.running = undefined;
        if (this.again && !this.closing && !this.failed) {
          this.again = false;
          this.request();
        }
      });
  }

  private fail(error: Error): void {
    if (this.failed) return;
    this.failed = error;
    for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    this.restoreWriter();
    this.options.onFailure?.(error);
  }

  private restoreWriter(): void {
    if (this.writer.open) this.writer.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  }
}
