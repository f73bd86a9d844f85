import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { eplWithCopies, zplWithCopies } from './labels.js';

const s = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');
const b = (text: string) => Buffer.from(text, 'latin1');

describe('ZPL copies', () => {
  test('one copy leaves the bytes as they are', () => {
    const job = b('^XA^FO50,50^FDHello^FS^XZ');
    assert.equal(zplWithCopies(job, 1), job);
  });

  test('^PQ is added before ^XZ of each format', () => {
    assert.equal(
      s(zplWithCopies(b('^XA^FDa^FS^XZ\n^XA^FDb^FS^XZ\n'), 3)),
      '^XA^FDa^FS^PQ3^XZ\n^XA^FDb^FS^PQ3^XZ\n',
    );
  });

  test('a format with its own quantity prints copies times as many', () => {
    assert.equal(s(zplWithCopies(b('^XA^PQ2,0,1,Y^FDa^FS^xz'), 3)), '^XA^PQ6,0,1,Y^FDa^FS^xz');
  });

  test('a changed command prefix or no complete format repeats the job', () => {
    assert.equal(s(zplWithCopies(b('^CC+XA+FDa+FS+XZ'), 2)), '^CC+XA+FDa+FS+XZ^CC+XA+FDa+FS+XZ');
    assert.equal(s(zplWithCopies(b('~HS'), 2)), '~HS~HS');
  });

  test('binary bytes pass through untouched', () => {
    const job = Buffer.concat([
      b('^XA~DYR:X,B,P,4,,'),
      Buffer.from([0x00, 0xff, 0x80, 0x5e]),
      b('^XZ'),
    ]);
    const out = Buffer.from(zplWithCopies(job, 2));
    assert.deepEqual(out.subarray(17, 21), Buffer.from([0x00, 0xff, 0x80, 0x5e]));
    assert.equal(out.subarray(21).toString('latin1'), '^PQ2^XZ');
  });

  test('copies must be a positive integer', () => {
    assert.throws(() => zplWithCopies(b('^XA^XZ'), 0), RangeError);
  });
});

describe('EPL copies', () => {
  test('the print command counts copies times the label sets', () => {
    assert.equal(
      s(eplWithCopies(b('N\nA50,0,0,1,1,1,N,"Hi"\nP1\n'), 4)),
      'N\nA50,0,0,1,1,1,N,"Hi"\nP4\n',
    );
    assert.equal(s(eplWithCopies(b('N\r\nP2,3\r\n'), 2)), 'N\r\nP4,3\r\n');
  });

  test('a job without a print command is repeated', () => {
    assert.equal(s(eplWithCopies(b('N\nA1\n'), 2)), 'N\nA1\nN\nA1\n');
  });

  test('other commands starting with P are left alone', () => {
    assert.equal(s(eplWithCopies(b('PA\nN\nP1\n'), 2)), 'PA\nN\nP2\n');
  });
});
