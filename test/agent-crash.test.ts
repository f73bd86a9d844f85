import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DispatchedJob } from '@printwire/shared/protocol/index';
import { FakeCloud } from './fake-cloud.js';
import { FakePrinter } from './fake-printer.js';

const BIN = new URL('../agent/bin/printwire-agent.mjs', import.meta.url).pathname;

function startAgent(args: string[]): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, [BIN, 'start', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

function timesPrinted(printer: FakePrinter, text: string): number {
  return printer.bytes().toString('latin1').split(text).length - 1;
}

describe('agent process crashes', () => {
  let cloud: FakeCloud;
  let printer: FakePrinter;
  let args: string[];
  let running: ChildProcess | null = null;
  let agentPrinterId = '';

  before(async () => {
    cloud = await FakeCloud.start();
    printer = await FakePrinter.start();
    cloud.activationCodes.set('ACT-1', { deviceId: 'dev_1', deviceToken: 'pwd_crash_token_1' });
    args = [
      '--data-dir',
      mkdtempSync(join(tmpdir(), 'pw-crash-')),
      '--cloud',
      cloud.url,
      '--activation-code',
      'ACT-1',
      '--printer',
      printer.uri('name=Counter'),
      '--no-local-server',
    ];
  });

  after(async () => {
    if (running && running.exitCode === null) await kill9(running);
    await cloud.stop();
    await printer.stop();
  });

  test('an agent killed after acknowledging a job and before printing it prints it exactly once after a restart', async () => {
    // The printer is unreachable, so the agent can store and acknowledge the job but not print it.
    await printer.refuseConnections();
    const first = startAgent(args);
    running = first.child;
    const hello = await cloud
      .waitFor('hello', () => true, { timeoutMs: 20_000 })
      .catch((e: Error) => {
        throw new Error(`${e.message}\n${first.output()}`);
      });
    agentPrinterId = hello.printers[0]!.agentPrinterId;
    const job: DispatchedJob = {
      id: 'job_crash_1',
      attempt: 1,
      maxAttempts: 5,
      agentPrinterId,
      type: 'text',
      encoding: 'utf8',
      content: 'ORDER 42 - PRINT ME ONCE',
      options: { cut: 'full' },
      expiresAt: null,
      createdAt: new Date().toISOString(),
    };
    const acked = cloud.waitFor('job.ack', (m) => m.jobId === job.id);
    cloud.dispatch(job);
    await acked;
    await kill9(first.child);
    assert.equal(printer.byteCount, 0);

    await printer.acceptConnections();
    cloud.autoAck = false;
    const second = startAgent(args);
    running = second.child;
    await cloud.waitFor('hello', () => true, { timeoutMs: 20_000 });
    // At least once on the wire: the cloud sends the unconfirmed job again after a reconnect.
    const printed = cloud.waitFor('job.result', (m) => m.jobId === job.id, { timeoutMs: 20_000 });
    cloud.dispatch(job);
    const result = await printed;
    assert.equal(result.outcome, 'printed');
    assert.equal(timesPrinted(printer, job.content as string), 1);

    // Killed again before the cloud confirmed the result: the result comes back, the job does not.
    await kill9(second.child);
    cloud.autoAck = true;
    const third = startAgent(args);
    running = third.child;
    const resent = cloud.waitFor('job.result', (m) => m.jobId === job.id, { timeoutMs: 20_000 });
    assert.equal((await resent).id, result.id);
    // The ack and the result sent again may arrive in one read: wait for both from the start.
    const answered = cloud.waitFor('job.ack', (m) => m.jobId === job.id);
    const resultAgain = cloud.waitFor('job.result', (m) => m.jobId === job.id);
    cloud.dispatch(job);
    await answered;
    await resultAgain;
    assert.equal(timesPrinted(printer, job.content as string), 1);
    const exited = once(third.child, 'exit');
    third.child.kill('SIGTERM');
    const [code] = await exited;
    assert.equal(code, 0, 'SIGTERM stops the agent cleanly');
  });

  test('the support zip of that agent holds its logs and not its device token', () => {
    const dataDir = args[1]!;
    const logs = readdirSync(join(dataDir, 'logs')).filter((f) => f.endsWith('.log'));
    assert.ok(logs.length > 0, 'the agent logs to a file in its data dir');
    const out = join(dataDir, 'support.zip');
    execFileSync(process.execPath, [BIN, 'logs', 'export', '--data-dir', dataDir, '--out', out]);
    const names = execFileSync('unzip', ['-Z1', out], { encoding: 'utf8' }).trim().split('\n');
    assert.ok(names.includes('config.json') && names.some((n) => n.startsWith('logs/')));
    const everything = execFileSync('unzip', ['-p', out], { encoding: 'utf8' });
    assert.match(everything, /job_crash_1/);
    assert.equal(everything.includes('pwd_crash_token_1'), false);
    const status = JSON.parse(
      execFileSync(process.execPath, [BIN, 'status', '--data-dir', dataDir, '--json'], {
        encoding: 'utf8',
      }),
    ) as { deviceId: string; queue: { printed: number; queued: number } };
    assert.equal(status.deviceId, 'dev_1');
    const printers = JSON.parse(
      execFileSync(process.execPath, [BIN, 'printers', '--data-dir', dataDir, '--json'], {
        encoding: 'utf8',
      }),
    ) as Array<{ agentPrinterId: string; name: string }>;
    assert.deepEqual(
      printers.map((p) => [p.agentPrinterId, p.name]),
      [[agentPrinterId, 'Counter']],
      'the printer kept its id across three starts',
    );
    assert.deepEqual([status.queue.printed, status.queue.queued], [1, 0]);
  });
});
