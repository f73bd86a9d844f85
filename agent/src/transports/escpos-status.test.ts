import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeEscposStatus, isStatusByte } from './escpos-status.js';

describe('ESC/POS real-time status', () => {
  test('all-clear answers read online', () => {
    assert.deepEqual(decodeEscposStatus([0x12, 0x12, 0x12, 0x12]), {
      status: 'online',
      detail: null,
    });
  });

  test('the paper sensor near-end bits keep the printer online with a note', () => {
    assert.deepEqual(decodeEscposStatus([0x12, 0x12, 0x12, 0x1e]), {
      status: 'online',
      detail: 'paper near end',
    });
  });

  test('paper end from the paper sensor or the offline cause reads paper_out', () => {
    assert.equal(decodeEscposStatus([0x1a, 0x12, 0x12, 0x72]).status, 'paper_out');
    assert.equal(decodeEscposStatus([0x1a, 0x32, 0x12, 0x12]).status, 'paper_out');
  });

  test('an open cover reads cover_open, not offline', () => {
    assert.equal(decodeEscposStatus([0x1a, 0x16, 0x12, 0x12]).status, 'cover_open');
  });

  test('cutter and unrecoverable errors read error with the cause', () => {
    assert.deepEqual(decodeEscposStatus([0x1a, 0x52, 0x1a, 0x12]), {
      status: 'error',
      detail: 'cutter error',
    });
    assert.equal(decodeEscposStatus([0x1a, 0x52, 0x32, 0x12]).detail, 'unrecoverable error');
  });

  test('only bytes with the fixed bits of a status answer count as one', () => {
    assert.equal(isStatusByte(0x12), true);
    assert.equal(isStatusByte(0x7e), true);
    assert.equal(isStatusByte(0x41), false);
    assert.equal(isStatusByte(0x92), false);
  });
});
