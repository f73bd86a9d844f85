import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { FakeCloud } from '../../../test/fake-cloud.js';
import { FakePrinter } from '../../../test/fake-printer.js';
import { Agent } from '../agent.js';
import type { DiscoverySources } from '../discovery/discover.js';
import { silentLogger } from '../logs/logger.js';
import type { AgentState } from './agent-state.js';
import { WindowPrompts } from './prompts.js';

let seq = 0;
function job(agentPrinterId: string, content: string): DispatchedJob {
  seq += 1;
  return {
    id: `job_win${seq}`,
    attempt: 1,
    maxAttempts: 3,
    agentPrinterId,
    type: 'text',
    encoding: 'utf8',
    content,
    options: {},
    expiresAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('the agent core the window and the tray use', () => {
  let cloud: FakeCloud;
  let printer: FakePrinter;
  let dataDir: string;
  let agent: Agent;
  let printerId: string;

  before(async () => {
    cloud = await FakeCloud.start();
    cloud.activationCodes.set('CODE-WIN', { deviceId: 'dev_win', deviceToken: 'pwd_token_win' });
    printer = await FakePrinter.start();
    dataDir = mkdtempSync(join(tmpdir(), 'pw-window-core-'));
    agent = await Agent.open({
      dataDir,
      cloudUrl: cloud.url,
      printers: [printer.uri('name=Till')],
      logger: silentLogger(),
      durability: 'process',
      runner: { pollIntervalMs: 0 },
    });
    printerId = agent.printers[0]!.agentPrinterId;
    agent.start();
  });

  after(async () => {
    await agent.stop();
    await printer.stop();
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('a device activated from a code connects, and the state says so', async () => {
    assert.equal(agent.state().tray, 'not-activated');
    const connected = new Promise<AgentState>((resolve) => {
      const off = agent.onState((s) => {
        if (s.cloud === 'connected') {
          off();
          resolve(s);
        }
      });
    });
    await agent.activate({ code: 'CODE-WIN', name: 'Till 1' });
    assert.equal((await connected).tray, 'connected');
    assert.equal(agent.config.deviceId, 'dev_win');
    await assert.rejects(agent.activate({ code: 'CODE-WIN' }), { code: 'CONFLICT' });
  });

  test('pause keeps jobs from the printer, across a restart, and resume prints what waited', async () => {
    agent.pause();
    assert.equal(agent.state().tray, 'paused');
    const waiting = job(printerId, 'waited while paused');
    const acked = cloud.waitFor('job.ack', (m) => m.jobId === waiting.id);
    cloud.dispatch(waiting);
    await acked;
    assert.equal(printer.byteCount, 0);
    assert.equal(agent.jobs().find((j) => j.id === waiting.id)?.state, 'queued');

    await agent.stop();
    agent = await Agent.open({ dataDir, logger: silentLogger(), durability: 'process' });
    assert.equal(agent.paused, true, 'paused is kept across a restart');
    agent.start();
    assert.equal(printer.byteCount, 0);

    const printed = cloud.waitFor('job.result', (m) => m.jobId === waiting.id);
    agent.resume();
    assert.equal((await printed).outcome, 'printed');
    assert.match(printer.bytes().toString('latin1'), /waited while paused/);
  });

  test('a queued cloud job cancelled in the window fails with CANCELLED_AT_AGENT', async () => {
    agent.pause();
    const queued = job(printerId, 'never printed');
    const acked = cloud.waitFor('job.ack', (m) => m.jobId === queued.id);
    cloud.dispatch(queued);
    await acked;
    const result = cloud.waitFor('job.result', (m) => m.jobId === queued.id);
    await agent.cancelJob(queued.id);
    assert.equal((await result).errorCode, 'CANCELLED_AT_AGENT');
    assert.equal(agent.jobs().find((j) => j.id === queued.id)?.state, 'failed');
    await assert.rejects(agent.cancelJob(queued.id), { code: 'JOB_ALREADY_FINISHED' });
    assert.throws(() => agent.retryJob(queued.id), { code: 'JOB_ALREADY_FINISHED' });
    agent.resume();
  });

  test('retry tries a job waiting for its next attempt at once', async () => {
    await printer.refuseConnections();
    const retried = job(printerId, 'after the retry');
    const scheduled = cloud.waitFor(
      'job.progress',
      (m) => m.jobId === retried.id && m.stage === 'retry_scheduled',
    );
    cloud.dispatch(retried);
    await scheduled;
    await printer.acceptConnections();
    const printed = cloud.waitFor('job.result', (m) => m.jobId === retried.id);
    agent.retryJob(retried.id);
    assert.equal((await printed).outcome, 'printed');
  });

  test('the test page prints even while paused, with the printer name and codepage', async () => {
    agent.pause();
    printer.clear();
    await agent.printTestPage(printerId);
    assert.match(printer.bytes().toString('latin1'), /Printwire test page[\s\S]*Printer: Till/);
    agent.resume();
    await assert.rejects(agent.printTestPage('nope'), { code: 'PRINTER_NOT_FOUND' });
  });

  test('settings are kept, and a bad change names the rule', () => {
    const s = agent.updateSettings({
      notificationsMuted: true,
      startAtLogin: false,
      localPort: 21920,
    });
    assert.equal(s.notificationsMuted, true);
    assert.equal(s.startAtLogin, false);
    assert.equal(s.localPort, 21920);
    assert.equal(s.dataDir, dataDir);
    assert.throws(() => agent.updateSettings({ cloudUrl: 'https://other.example' }), {
      code: 'CONFLICT',
    });
  });

  test('the trust prompt waits for an answer given in the window', async () => {
    const prompts = new WindowPrompts();
    const changes: number[] = [];
    prompts.onChange(() => changes.push(prompts.pending().length));
    const asked = prompts.ask('https://shop.example');
    const [pending] = prompts.pending();
    assert.equal(pending?.origin, 'https://shop.example');
    assert.equal(prompts.answer(pending!.id, 'always'), true);
    assert.equal(await asked, 'always');
    assert.equal(prompts.answer(pending!.id, 'block'), false);
    assert.deepEqual(changes, [1, 0]);
  });

  test('an unanswered trust prompt refuses the request after its timeout', async () => {
    const prompts = new WindowPrompts({ timeoutMs: 10 });
    await assert.rejects(prompts.ask('https://late.example'), { code: 'ORIGIN_NOT_ALLOWED' });
    assert.deepEqual(prompts.pending(), []);
  });
});

describe('hiding a printer from the window', () => {
  test('a found printer hidden is neither used nor listed, and shown again comes back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pw-window-hide-'));
    const sources: DiscoverySources = {
      spooler: {
        listQueues: async () => [
          { name: 'counter', description: null, isDefault: false, device: 'usb://Star/TSP143' },
        ],
        queueStatus: async () => null,
        submit: async () => '1',
        jobState: async () => 'completed',
        cancel: async () => undefined,
      },
    };
    const agent = await Agent.open({
      dataDir,
      logger: silentLogger(),
      discovery: sources,
      discoveryIntervalMs: 0,
      durability: 'process',
    });
    try {
      const [found] = agent.printerInfo();
      assert.ok(found, 'the system queue is found');
      await agent.setPrinterHidden(found.agentPrinterId, true);
      assert.deepEqual(agent.printerInfo(), []);
      assert.deepEqual(
        agent.hiddenPrinters().map((p) => p.agentPrinterId),
        [found.agentPrinterId],
      );
      await agent.setPrinterHidden(found.agentPrinterId, false);
      assert.deepEqual(
        agent.printerInfo().map((p) => p.agentPrinterId),
        [found.agentPrinterId],
      );
      assert.deepEqual(agent.hiddenPrinters(), []);
      await assert.rejects(agent.setPrinterHidden('prn_unknown', true), {
        code: 'PRINTER_NOT_FOUND',
      });
    } finally {
      await agent.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
