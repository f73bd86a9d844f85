import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barcodeData, barcodeModules, gs1CheckDigit } from './barcode.js';

test('GS1 check digits match published codes', () => {
  // EAN-13 4006381333931, EAN-8 96385074, UPC-A 036000291452 (GS1 examples).
  assert.equal(gs1CheckDigit('400638133393'), 1);
  assert.equal(gs1CheckDigit('9638507'), 4);
  assert.equal(gs1CheckDigit('03600029145'), 2);
});

test('GS1 codes are sent without the check digit; the printer adds it', () => {
  assert.equal(barcodeData('EAN13', '4006381333931'), '400638133393');
  assert.equal(barcodeData('EAN13', '400638133393'), '400638133393');
  assert.equal(barcodeData('UPC-A', '036000291452'), '03600029145');
  assert.equal(barcodeData('EAN8', '96385074'), '9638507');
});

test('CODE128 switches to code set C for long digit runs only', () => {
  assert.equal(barcodeData('CODE128', 'ABC'), '{BABC');
  assert.equal(barcodeData('CODE128', '12'), '{C\x0c');
  assert.equal(barcodeData('CODE128', 'A12B'), '{BA12B');
  assert.equal(barcodeData('CODE128', 'A1234'), '{BA{C\x0c\x22');
  assert.equal(barcodeData('CODE128', 'A12345B'), '{BA12345B');
  assert.equal(barcodeData('CODE128', 'A123456B'), '{BA{C\x0c\x22\x38{BB');
  assert.equal(barcodeData('CODE128', '{'), '{B{{');
});

test('symbol widths in modules follow each symbology', () => {
  assert.equal(barcodeModules('EAN13', '400638133393'), 95);
  assert.equal(barcodeModules('EAN8', '9638507'), 67);
  // start + 3 data + check = 5 symbols of 11, stop 13.
  assert.equal(barcodeModules('CODE128', '{BABC'), 68);
  assert.equal(barcodeModules('CODE128', '{B{{'), 46);
  assert.equal(barcodeModules('CODE39', 'AB'), 64);
});
