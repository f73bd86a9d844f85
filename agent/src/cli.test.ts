import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { emptyConfig, loadConfig, saveConfig, setPrinters } from './config/config-store.js';
import { parsePrinterUri } from './config/printer-uri.js';

const BIN = new URL('../bin/printwire-agent.mjs', import.meta.url).pathname;

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('printwire-agent CLI', () => {
  test('without a command it prints the usage', () => {
    const r = run();
    assert.equal(r.code, 0);
    assert.match(r.stdout, /printwire-agent start --cloud URL/);
  });

  test('an unknown command is a usage error (exit 2)', () => {
    const unknown = run('frobnicate');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  });

  test('start refuses a bad printer URI with its reason (exit 1) and flags that exclude each other (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const bad = run('start', '--data-dir', dir, '--printer', 'tcp://h?paper=A4');
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /\[VALIDATION_FAILED\].*paper must be 58mm or 80mm/);
    const both = run('start', '--data-dir', dir, '--local-port', '8443', '--no-local-server');
    assert.equal(both.code, 2);
    assert.match(both.stderr, /exclude each other/);
  });

  test('status describes an empty data dir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const status = JSON.parse(run('status', '--data-dir', dir, '--json').stdout) as Record<
      string,
      unknown
    >;
    assert.deepEqual([status.deviceId, status.activated, status.queue], [null, false, null]);
  });

  test('printers lists the configured printers and what it finds on this computer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    saveConfig(dir, setPrinters(emptyConfig(), ['tcp://10.0.0.9?name=Bar']));
    const text = run('printers', '--data-dir', dir);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /Configured:\n {2}prn_\w+ {2}Bar {2}tcp:\/\/10\.0\.0\.9:9100/);
    assert.match(text.stdout, /Found on this computer:\n/);
    // --json alone stays the configured list that scripts read.
    const list = JSON.parse(run('printers', '--data-dir', dir, '--json').stdout) as unknown[];
    assert.deepEqual(
      list.map((p) => (p as { name: string }).name),
      ['Bar'],
    );
    const found = JSON.parse(run('printers', '--data-dir', dir, '--json', '--discover').stdout) as {
      configured: unknown[];
      discovered: Array<{ uri: string; kind: string; capabilities: string[] }>;
      problems: string[];
    };
    assert.equal(found.configured.length, 1);
    for (const printer of found.discovered) {
      assert.ok(parsePrinterUri(printer.uri), printer.uri);
      assert.ok(['receipt', 'label', 'office'].includes(printer.kind));
    }
  });

  test('printers hide and show keep the choice in the data dir, refusing unknown ids', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const configured = setPrinters(emptyConfig(), ['tcp://10.0.0.9?name=Bar'], () => 'prn_bar');
    saveConfig(dir, {
      ...configured,
      printerIds: { ...configured.printerIds, 'system:Office': 'prn_office' },
    });
    const hide = run('printers', 'hide', 'prn_office', '--data-dir', dir);
    assert.equal(hide.code, 0, hide.stderr);
    assert.match(hide.stdout, /printer prn_office hidden/);
    assert.deepEqual(loadConfig(dir).hiddenPrinters, ['prn_office']);
    const unknown = run('printers', 'hide', 'prn_nope', '--data-dir', dir);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /\[PRINTER_NOT_FOUND\]: no printer prn_nope on this agent/);
    const show = run('printers', 'show', 'prn_office', '--data-dir', dir);
    assert.equal(show.code, 0, show.stderr);
    assert.deepEqual(loadConfig(dir).hiddenPrinters, []);
  });

  test('start refuses a discovery interval outside its range, naming the variable (exit 1)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pw-cli-'));
    const r = spawnSync(process.execPath, [BIN, 'start', '--data-dir', dir], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS: '999' },
    });
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /\[VALIDATION_FAILED\]: PRINTWIRE_AGENT_DISCOVERY_INTERVAL_MS must be a whole number of milliseconds from 1000 to 3600000, not '999'/,
    );
  });
});
