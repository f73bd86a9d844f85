/**
 * Label jobs (ZPL, EPL) go to the printer byte for byte; only `copies` is applied, in the
 * printer's own language so that the printer counts labels (and serial numbers advance) instead
 * of receiving the job again. Pure. Bytes are read as latin1, which maps each byte to one
 * character and back, so binary graphics pass through untouched.
 */

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function repeat(bytes: Uint8Array, copies: number): Uint8Array {
  return Buffer.concat(Array.from({ length: copies }, () => bytes));
}

function checkCopies(copies: number): void {
  if (!Number.isInteger(copies) || copies < 1)
    throw new RangeError(`copies must be a positive integer, got ${copies}`);
}

/**
 * ZPL with `copies`: each label format (`^XA` … `^XZ`) prints `copies` times its quantity —
 * `^PQ` is added before `^XZ` where a format has none, multiplied where it has one. A job that
 * changes the command prefix (`^CC`, `~CC`) or has no complete format is repeated instead.
 */
export function zplWithCopies(bytes: Uint8Array, copies: number): Uint8Array {
  checkCopies(copies);
  if (copies === 1) return bytes;
  const zpl = text(bytes);
  if (/[\^~]CC/i.test(zpl) || !/\^XA[\s\S]*?\^XZ/i.test(zpl)) return repeat(bytes, copies);
  const out = zpl.replace(/\^XA[\s\S]*?\^XZ/gi, (format) => {
    const pq = /\^PQ(\d*)/i;
    if (pq.test(format)) {
      return format.replace(pq, (_, q: string) => `^PQ${(q === '' ? 1 : Number(q)) * copies}`);
    }
    return `${format.slice(0, -3)}^PQ${copies}${format.slice(-3)}`;
  });
  return Buffer.from(out, 'latin1');
}

/**
 * EPL with `copies`: every print command `P<sets>[,<copies>]` prints `copies` times as many
 * label sets. A job without a print command is repeated.
 */
export function eplWithCopies(bytes: Uint8Array, copies: number): Uint8Array {
  checkCopies(copies);
  if (copies === 1) return bytes;
  const epl = text(bytes);
  const print = /^P(\d+)((?:,\d+)?)(\r?)$/gm;
  if (!print.test(epl)) return repeat(bytes, copies);
  print.lastIndex = 0;
  const out = epl.replace(
    print,
    (_, sets: string, perSet: string, cr: string) => `P${Number(sets) * copies}${perSet}${cr}`,
  );
  return Buffer.from(out, 'latin1');
}
