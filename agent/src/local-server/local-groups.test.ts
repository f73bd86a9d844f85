import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigPrinterGroup } from '@printwire/shared/protocol/index';
import { FakePrinter } from '../../../test/fake-printer.js';
import { Agent } from '../agent.js';
import { silentLogger } from '../logs/logger.js';
import { LocalTestClient } from '../testing/local-client.js';
import { DEFAULT_LOCAL_SETTINGS } from './local-store.js';
import type { LocalJob } from './protocol.js';

const PAGE = 'https://shop.example';
let first: FakePrinter;
let second: FakePrinter;
let agent: Agent;
let port: number;
let client: LocalTestClient;
let ids: { first: string; second: string };

const timesPrinted = (printer: FakePrinter, text: string) =>
  printer.bytes().toString('latin1').split(text).length - 1;

function groups(...list: Array<Omit<ConfigPrinterGroup, 'agentPrinterIds'>>): void {
  agent.local.applyConfig({
    printerGroups: list.map((g) => ({ ...g, agentPrinterIds: [ids.first, ids.second] })),
  });
}

async function print(body: Record<string, unknown>): Promise<LocalJob> {
  const reply = await client.request('job.print', body);
  assert.equal(reply.type, 'reply', JSON.stringify(reply));
  const id = (reply as { result: LocalJob }).result.id;
  const frame = await client.next(
    (f) =>
      f.type === 'event' &&
      f.event === 'job' &&
      f.data.id === id &&
      ['printed', 'failed', 'cancelled'].includes(f.data.state),
  );
  return (frame as { data: LocalJob }).data;
}

/** Resolves once the agent has read both printers online (the idle polls run every 50 ms). */
async function bothOnline(): Promise<void> {
  for (;;) {
    const statuses = agent.printerInfo().map((p) => p.status);
    if (statuses.every((s) => s === 'online')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

before(async () => {
  first = await FakePrinter.start();
  second = await FakePrinter.start();
  agent = await Agent.open({
    dataDir: mkdtempSync(join(tmpdir(), 'pw-local-groups-')),
    printers: [first.uri('name=Kitchen 1'), second.uri('name=Kitchen 2')],
    logger: silentLogger(),
    durability: 'process',
    runner: {
      pollIntervalMs: 50,
      keepOpenMs: 0,
      retryBaseMs: 50,
      statusMaxAgeMs: 0,
      transport: { statusTimeoutMs: 200 },
    },
    localServer: { port: 0 },
  });
  agent.start();
  port = (await agent.localServerReady)!;
  ids = { first: agent.printers[0]!.agentPrinterId, second: agent.printers[1]!.agentPrinterId };
  agent.local.applyConfig({ local: { ...DEFAULT_LOCAL_SETTINGS, allowedOrigins: [PAGE] } });
  client = await LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
    origin: PAGE,
    host: `localhost:${port}`,
  });
  await bothOnline();
});

after(async () => {
  client.close();
  await agent.stop();
  await first.stop();
  await second.stop();
});

describe('printer groups in local mode', () => {
  test('failover: with the first printer out of paper, the second prints the job once', async () => {
    groups({ id: 'grp_kitchen', name: 'Kitchen', strategy: 'failover' });
    first.paperOut = true;
    try {
      const job = await print({
        type: 'text',
        data: 'ORDER 7 FRIES',
        printerGroupId: 'grp_kitchen',
      });
      assert.equal(job.state, 'printed');
      assert.equal(job.printerGroupId, 'grp_kitchen');
      assert.equal(job.agentPrinterId, ids.second);
      assert.equal(timesPrinted(second, 'ORDER 7 FRIES'), 1);
      assert.equal(timesPrinted(first, 'ORDER 7 FRIES'), 0);
    } finally {
      first.paperOut = false;
    }
  });

  test('failover: a job on a printer found out of paper before its first byte moves to the other', async () => {
    groups({ id: 'grp_kitchen', name: 'Kitchen', strategy: 'failover' });
    await bothOnline();
    // Out of paper now, but the agent's last read says online: the job goes to the first.
    first.paperOut = true;
    try {
      const job = await print({
        type: 'text',
        data: 'ORDER 8 SOUP',
        printerGroupId: 'grp_kitchen',
      });
      assert.equal(job.state, 'printed');
      assert.equal(job.agentPrinterId, ids.second);
      assert.equal(timesPrinted(second, 'ORDER 8 SOUP'), 1);
      assert.equal(timesPrinted(first, 'ORDER 8 SOUP'), 0);
    } finally {
      first.paperOut = false;
    }
  });

  test('all members out: the job waits, then prints once on the first that comes back', async () => {
    groups({ id: 'grp_kitchen', name: 'Kitchen', strategy: 'failover' });
    first.paperOut = true;
    second.coverOpen = true;
    const reply = await client.request('job.print', {
      type: 'text',
      data: 'ORDER 9 CAKE',
      printerGroupId: 'grp_kitchen',
      options: { maxAttempts: 1 },
    });
    const id = (reply as { result: LocalJob }).result.id;
    // Held without using up its one attempt while neither printer can print.
    await client.next(
      (f) => f.type === 'event' && f.event === 'printer.status' && f.data.status === 'cover_open',
    );
    assert.equal(agent.queue.localRecord(id)?.state, 'queued');
    second.coverOpen = false;
    const done = await client.next(
      (f) =>
        f.type === 'event' && f.event === 'job' && f.data.id === id && f.data.state === 'printed',
    );
    assert.equal((done as { data: LocalJob }).data.agentPrinterId, ids.second);
    first.paperOut = false;
    assert.equal(timesPrinted(second, 'ORDER 9 CAKE'), 1);
    assert.equal(timesPrinted(first, 'ORDER 9 CAKE'), 0);
  });

  test('round-robin: jobs go to the members in turn', async () => {
    groups({ id: 'grp_tills', name: 'Tills', strategy: 'round-robin' });
    await bothOnline();
    const printers: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const job = await print({ type: 'text', data: `TILL ${i};`, printerGroupId: 'grp_tills' });
      printers.push(job.agentPrinterId);
    }
    assert.deepEqual(printers, [ids.first, ids.second, ids.first, ids.second]);
    for (let i = 1; i <= 4; i++) {
      assert.equal(timesPrinted(first, `TILL ${i};`) + timesPrinted(second, `TILL ${i};`), 1);
    }
  });

  test('a group the agent does not know, or a group with a printer, is refused INVALID_JOB', async () => {
    groups({ id: 'grp_kitchen', name: 'Kitchen', strategy: 'failover' });
    const unknown = await client.request('job.print', {
      type: 'text',
      data: 'x',
      printerGroupId: 'grp_nope',
    });
    assert.equal(unknown.type, 'error');
    assert.equal((unknown as { code: string }).code, 'INVALID_JOB');
    assert.match(
      (unknown as { message: string }).message,
      /printerGroupId: no printer group grp_nope/,
    );
    const both = await client.request('job.print', {
      type: 'text',
      data: 'x',
      printerGroupId: 'grp_kitchen',
      printerId: ids.first,
    });
    assert.equal((both as { code: string }).code, 'INVALID_JOB');
    assert.match((both as { message: string }).message, /printerGroupId/);
  });
});
