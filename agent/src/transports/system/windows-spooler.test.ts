import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { CommandOptions, CommandResult, CommandRunner } from './run-command.js';
import { WindowsSpooler } from './windows-spooler.js';

/*
 * The Node side of the Windows spooler against a recorded PowerShell: what it runs, with which
 * values, and how it reads the answers. The PowerShell scripts themselves need Windows.
 */

interface Call {
  command: string;
  script: string;
  env: Record<string, string>;
  /** The job file's bytes while PowerShell would be reading it. */
  file: Buffer | null;
}

function recordingRunner(answer: (call: Call) => Partial<CommandResult>): {
  run: CommandRunner;
  calls: Call[];
} {
  const calls: Call[] = [];
  const run: CommandRunner = async (command, args, options: CommandOptions = {}) => {
    const env = options.env ?? {};
    const call: Call = {
      command,
      script: args.at(-1)!,
      env,
      file: env.PW_FILE && existsSync(env.PW_FILE) ? readFileSync(env.PW_FILE) : null,
    };
    calls.push(call);
    return { code: 0, stdout: '', stderr: '', ...answer(call) };
  };
  return { run, calls };
}

describe('Windows spooler (recorded PowerShell)', () => {
  test('raw bytes go to WritePrinter through a temporary file that is removed after', async () => {
    const { run, calls } = recordingRunner(() => ({ stdout: '17\r\n' }));
    const spooler = new WindowsSpooler(run);
    const id = await spooler.submit('Front Desk', Buffer.from([0x1b, 0x40, 0x41]), {
      format: 'raw',
      title: 'Order 12',
      copies: 2,
    });
    assert.equal(id, '17');
    const [call] = calls;
    assert.equal(call!.command, 'powershell.exe');
    assert.match(call!.script, /WritePrinter/);
    assert.deepEqual(
      [call!.env.PW_QUEUE, call!.env.PW_TITLE, call!.env.PW_COPIES],
      ['Front Desk', 'Order 12', '2'],
    );
    assert.deepEqual(call!.file, Buffer.from([0x1b, 0x40, 0x41]));
    assert.equal(existsSync(call!.env.PW_FILE!), false);
  });

  test('a document goes through the PrintTo verb', async () => {
    const { run, calls } = recordingRunner(() => ({ stdout: '4' }));
    await new WindowsSpooler(run).submit('Laser', Buffer.from('%PDF-1.4'), {
      format: 'document',
      title: 't',
    });
    assert.match(calls[0]!.script, /-Verb PrintTo/);
    assert.match(calls[0]!.env.PW_FILE!, /\.pdf$/);
    await new WindowsSpooler(run).submit('Laser', Buffer.from([0x89, 0x50, 0x4e, 0x47]), {
      format: 'document',
      title: 't',
    });
    assert.match(calls[1]!.env.PW_FILE!, /\.png$/);
  });

  test('a refused job fails with PRINTER_ERROR naming the queue', async () => {
    const { run } = recordingRunner(() => ({ code: 1, stderr: 'The printer name is invalid.' }));
    await assert.rejects(
      new WindowsSpooler(run).submit('Nope', Buffer.from('x'), { format: 'raw', title: 't' }),
      (e: unknown) =>
        e instanceof PrintwireError && e.code === 'PRINTER_ERROR' && /Nope/.test(e.message),
    );
  });

  test('queue and job states are read from Get-Printer and Get-PrintJob', async () => {
    const answers: Record<string, Partial<CommandResult>> = {
      status: { stdout: 'PaperOut\r\n' },
      job: { stdout: 'Gone\r\n' },
    };
    const { run, calls } = recordingRunner((call) =>
      /Get-PrintJob/.test(call.script) ? answers.job! : answers.status!,
    );
    const spooler = new WindowsSpooler(run);
    assert.deepEqual(await spooler.queueStatus('Laser'), {
      status: 'paper_out',
      detail: 'paper out',
    });
    assert.equal(await spooler.jobState('Laser', '17'), 'completed');
    assert.equal(calls[1]!.env.PW_JOB, '17');
    answers.status = { code: 1, stderr: 'No MSFT_Printer objects found' };
    assert.equal(await spooler.queueStatus('Gone'), null);
  });

  test('queues are listed from one printer or many', async () => {
    const one = JSON.stringify({ Name: 'Laser', Default: true, PortName: 'USB001', Comment: '' });
    const { run } = recordingRunner(() => ({ stdout: one }));
    assert.deepEqual(await new WindowsSpooler(run).listQueues(), [
      { name: 'Laser', description: null, isDefault: true, device: 'USB001' },
    ]);
    const many = JSON.stringify([
      { Name: 'A', Default: false, PortName: null, Comment: 'Kitchen' },
      { Name: 'B', Default: true, PortName: 'IP_10.0.0.9', Comment: null },
    ]);
    const { run: run2 } = recordingRunner(() => ({ stdout: many }));
    assert.deepEqual(
      (await new WindowsSpooler(run2).listQueues()).map((q) => [q.name, q.isDefault]),
      [
        ['A', false],
        ['B', true],
      ],
    );
  });
});
