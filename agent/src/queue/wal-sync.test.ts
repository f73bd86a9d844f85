import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WalSync } from './wal-sync.js';

function walFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'pw-wal-')), 'queue.db-wal');
  writeFileSync(file, 'frames');
  return file;
}

describe('WAL sync', () => {
  test('flushes asked in one turn share a sync; one asked once it started waits for the next', async () => {
    const wal = new WalSync(walFile());
    const first = wal.flush();
    assert.equal(wal.flush(), first, 'same turn, same sync');
    await new Promise((resolve) => setImmediate(resolve));
    // The first sync has started: a commit made now may not be in it.
    const second = wal.flush();
    assert.notEqual(second, first);
    const order: string[] = [];
    await Promise.all([
      first.then(() => order.push('first')),
      second.then(() => order.push('second')),
    ]);
    assert.deepEqual(order, ['first', 'second']);
    wal.close();
  });

  test('a database that wrote nothing yet has no WAL file, and nothing to sync', async () => {
    const wal = new WalSync(join(mkdtempSync(join(tmpdir(), 'pw-wal-')), 'none.db-wal'));
    await wal.flush();
    wal.close();
  });

  test('a flush after close is refused', async () => {
    const wal = new WalSync(walFile());
    await wal.flush();
    wal.close();
    await assert.rejects(wal.flush(), /closed/);
  });
});
