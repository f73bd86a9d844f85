import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintwireError } from '../errors/index.js';
import {
  getPrinterProfile,
  listPrinterProfiles,
  loadPrinterProfiles,
  parsePrinterProfile,
} from './index.js';

test('every shipped profile file validates and is named after its id', () => {
  const profiles = loadPrinterProfiles();
  assert.ok(profiles.size >= 5);
  assert.deepEqual(
    listPrinterProfiles().map((p) => p.id),
    [...profiles.keys()],
  );
  const vendors = new Set(
    listPrinterProfiles()
      .filter((p) => p.vendor !== 'Generic')
      .map((p) => p.vendor),
  );
  assert.ok(vendors.size >= 3, `real models of ${vendors.size} vendors`);
});

test("the generic profiles have the spec's dots and characters and Epson's ESC t numbers", () => {
  const g58 = getPrinterProfile('generic-58mm');
  const g80 = getPrinterProfile('generic-80mm');
  assert.deepEqual([g58.paper, g58.dotsPerLine, g58.charsPerLine], ['58mm', 384, { a: 32, b: 42 }]);
  assert.deepEqual([g80.paper, g80.dotsPerLine, g80.charsPerLine], ['80mm', 576, { a: 48, b: 64 }]);
  const epson = { CP437: 0, CP850: 2, CP866: 17, CP1252: 16, CP858: 19, 'ISO-8859-15': 40 };
  assert.deepEqual(g58.codepages, epson);
  assert.deepEqual(g80.codepages, epson);
});

test('an unknown profile id is a NOT_FOUND error listing the known ones', () => {
  assert.throws(
    () => getPrinterProfile('epson-tm-u220'),
    (err: unknown) =>
      err instanceof PrintwireError &&
      err.code === 'NOT_FOUND' &&
      /known profiles: .*generic-80mm/.test(err.message),
  );
});

test('an invalid profile is rejected with every wrong field named', () => {
  const good = getPrinterProfile('generic-80mm');
  assert.throws(
    () =>
      parsePrinterProfile(
        { ...good, dotsPerLine: 'wide', defaultCodepage: 'CP999', codepages: { CP437: 0 } },
        'broken.json',
      ),
    (err: unknown) => {
      assert.ok(err instanceof PrintwireError);
      assert.match(err.message, /^broken\.json: printer profile is invalid: /);
      assert.match(err.message, /dotsPerLine: /);
      assert.match(err.message, /defaultCodepage: /);
      return true;
    },
  );
  assert.throws(
    () =>
      parsePrinterProfile({ ...good, defaultCodepage: 'CP866', codepages: { CP437: 0 } }, 'x.json'),
    /defaultCodepage: must be one of the profile's codepages \(CP437\)/,
  );
  assert.throws(
    () => parsePrinterProfile({ ...good, charsPerLine: { a: 64, b: 64 } }, 'x.json'),
    /charsPerLine\.a: 64 characters of 12 dots do not fit in 576 dots/,
  );
  assert.throws(
    () => parsePrinterProfile({ ...good, colour: 'black' }, 'x.json'),
    /x\.json: .*colour/,
  );
});

test('a profile folder with a bad file fails to load, naming the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'printwire-profiles-'));
  const good = getPrinterProfile('generic-58mm');
  writeFileSync(join(dir, 'generic-58mm.json'), JSON.stringify(good));
  assert.equal(loadPrinterProfiles(dir).size, 1);
  writeFileSync(join(dir, 'other.json'), JSON.stringify(good));
  assert.throws(
    () => loadPrinterProfiles(dir),
    /other\.json: printer profile id "generic-58mm" must match its file name/,
  );
  writeFileSync(join(dir, 'other.json'), '{ not json');
  assert.throws(() => loadPrinterProfiles(dir), /other\.json: printer profile is not valid JSON/);
});
