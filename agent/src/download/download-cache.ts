import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A file the agent downloaded. */
export interface DownloadedFile {
  bytes: Buffer;
  /** The server's Content-Type without parameters, or null. */
  contentType: string | null;
}

interface CacheMeta {
  url: string;
  fetchedAt: number;
  contentType: string | null;
}

/**
 * Downloaded files on disk, one `<sha256 of the URL>.bin` and `.json` pair each, written
 * through a temporary name so that a crash never leaves half a file behind.
 */
export class DownloadCache {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #paths(url: string): { bin: string; meta: string } {
    const key = createHash('sha256').update(url).digest('hex');
    return { bin: join(this.#dir, `${key}.bin`), meta: join(this.#dir, `${key}.json`) };
  }

  /** The cached file when it was fetched less than `ttlMs` before `now`, else null. */
  async get(url: string, now: number, ttlMs: number): Promise<DownloadedFile | null> {
    const paths = this.#paths(url);
    try {
      const meta = JSON.parse(await readFile(paths.meta, 'utf8')) as CacheMeta;
      if (meta.url !== url || now - meta.fetchedAt >= ttlMs || now < meta.fetchedAt) return null;
      return { bytes: await readFile(paths.bin), contentType: meta.contentType };
    } catch {
      return null;
    }
  }

  async put(url: string, file: DownloadedFile, now: number): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    const paths = this.#paths(url);
    const tmp = `.${randomBytes(6).toString('hex')}.tmp`;
    const meta: CacheMeta = { url, fetchedAt: now, contentType: file.contentType };
    await writeFile(paths.bin + tmp, file.bytes);
    await rename(paths.bin + tmp, paths.bin);
    await writeFile(paths.meta + tmp, JSON.stringify(meta));
    await rename(paths.meta + tmp, paths.meta);
  }

  /** Deletes entries older than `ttlMs`; returns how many were removed. */
  async prune(now: number, ttlMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const meta = join(this.#dir, name);
      try {
        const { fetchedAt } = JSON.parse(await readFile(meta, 'utf8')) as CacheMeta;
        if (now - fetchedAt < ttlMs) continue;
      } catch {
        // unreadable metadata: drop the entry
      }
      await rm(meta, { force: true });
      await rm(meta.replace(/\.json$/, '.bin'), { force: true });
      removed++;
    }
    return removed;
  }
}
