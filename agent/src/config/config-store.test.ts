import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  emptyConfig,
  setPrinterHidden,
  loadConfig,
  readDeviceToken,
  saveConfig,
  setPrinters,
  writeDeviceToken,
  configuredPrinters,
} from './config-store.js';
import { resolveDataDir } from './data-dir.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'pw-config-'));

describe('agent configuration', () => {
  test('a printer keeps its agentPrinterId across restarts and option changes', () => {
    const dir = tempDir();
    let n = 0;
    const makeId = () => `prn_${++n}`;
    saveConfig(dir, setPrinters(loadConfig(dir), ['tcp://10.0.0.5', 'tcp://10.0.0.6'], makeId));
    const reopened = loadConfig(dir);
    assert.deepEqual(
      reopened.printers.map((p) => p.agentPrinterId),
      ['prn_1', 'prn_2'],
    );
    const renamed = setPrinters(
      reopened,
      ['tcp://10.0.0.6:9100?name=Bar', 'tcp://10.0.0.7'],
      makeId,
    );
    assert.deepEqual(
      renamed.printers.map((p) => p.agentPrinterId),
      ['prn_2', 'prn_3'],
    );
    const back = setPrinters(renamed, ['tcp://10.0.0.5?name=Back'], makeId);
    assert.equal(back.printers[0]!.agentPrinterId, 'prn_1');
    assert.equal(configuredPrinters(back)[0]!.spec.name, 'Back');
  });

  test('the same printer given twice is refused', () => {
    assert.throws(
      () => setPrinters(loadConfig(tempDir()), ['tcp://h', 'tcp://H:9100?name=x']),
      /given twice/,
    );
  });

  test(
    'the device token file is readable by its owner only',
    { skip: process.platform === 'win32' },
    () => {
      const dir = tempDir();
      assert.equal(readDeviceToken(dir), null);
      writeDeviceToken(dir, 'pwd_secret');
      assert.equal(readDeviceToken(dir), 'pwd_secret');
      assert.equal(statSync(join(dir, 'device-token')).mode & 0o777, 0o600);
    },
  );

  test('a corrupt config file is reported with its path', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{"version":1,"printers":"no"}');
    assert.throws(() => loadConfig(dir), /config\.json: printers:/);
    writeFileSync(join(dir, 'config.json'), '{');
    assert.throws(() => loadConfig(dir), /is not JSON/);
  });

  test('the data dir comes from the flag, then the environment, then the OS folder', () => {
    const env = { PRINTWIRE_AGENT_DATA_DIR: '/env/dir' };
    assert.equal(resolveDataDir({ flag: '/flag/dir', env }), '/flag/dir');
    assert.equal(resolveDataDir({ env }), '/env/dir');
    assert.equal(
      resolveDataDir({ env: {}, platform: 'linux', home: '/home/a' }),
      '/home/a/.local/share/printwire-agent',
    );
    assert.equal(
      resolveDataDir({ env: {}, platform: 'darwin', home: '/Users/a' }),
      '/Users/a/Library/Application Support/Printwire Agent',
    );
    assert.match(
      resolveDataDir({ env: { LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' }, platform: 'win32' }),
      /Printwire.Agent$/,
    );
  });

  test('a printer found can be hidden and shown again; unknown and configured ids are refused', () => {
    const configured = setPrinters(emptyConfig(), ['tcp://10.0.0.9'], () => 'prn_bar');
    const config = {
      ...configured,
      printerIds: { ...configured.printerIds, 'system:Office': 'prn_office' },
    };
    const hidden = setPrinterHidden(config, 'prn_office', true);
    assert.deepEqual(hidden.hiddenPrinters, ['prn_office']);
    assert.deepEqual(setPrinterHidden(hidden, 'prn_office', true).hiddenPrinters, ['prn_office']);
    assert.deepEqual(setPrinterHidden(hidden, 'prn_office', false).hiddenPrinters, []);
    assert.throws(() => setPrinterHidden(config, 'prn_nope', true), {
      code: 'PRINTER_NOT_FOUND',
      message: /no printer prn_nope on this agent/,
    });
    assert.throws(() => setPrinterHidden(config, 'prn_bar', true), {
      code: 'VALIDATION_FAILED',
      message: /prn_bar is configured with --printer/,
    });
  });

  test('a configuration file written before printers could be hidden loads with none hidden', () => {
    const dir = tempDir();
    const { hiddenPrinters: _, ...older } = emptyConfig();
    writeFileSync(join(dir, 'config.json'), JSON.stringify(older));
    assert.deepEqual(loadConfig(dir).hiddenPrinters, []);
  });
});
