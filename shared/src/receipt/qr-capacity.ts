/**
 * How many bytes a QR code model 2 holds in byte mode, per version (1-40) and error level.
 * Taken from the QR standard's tables (as computed by the `qrcode` package). The printer picks
 * the version; Printwire uses the table to refuse data no version can hold and to shrink a code
 * that would be wider than the paper.
 */
export type QrErrorLevel = 'L' | 'M' | 'Q' | 'H';

// prettier-ignore
const BYTE_CAPACITY: Record<QrErrorLevel, readonly number[]> = {
  L: [17,32,53,78,106,134,154,192,230,271,321,367,425,458,520,586,644,718,792,858,929,1003,1091,1171,1273,1367,1465,1528,1628,1732,1840,1952,2068,2188,2303,2431,2563,2699,2809,2953],
  M: [14,26,42,62,84,106,122,152,180,213,251,287,331,362,412,450,504,560,624,666,711,779,857,911,997,1059,1125,1190,1264,1370,1452,1538,1628,1722,1809,1911,1989,2099,2213,2331],
  Q: [11,20,32,46,60,74,86,108,130,151,177,203,241,258,292,322,364,394,442,482,509,565,611,661,715,751,805,868,908,982,1030,1112,1168,1228,1283,1351,1423,1499,1579,1663],
  H: [7,14,24,34,44,58,64,84,98,119,137,155,177,194,220,250,280,310,338,382,403,439,461,511,535,593,625,658,698,742,790,842,898,958,983,1051,1093,1139,1219,1273],
};

/** The most bytes any QR code model 2 holds at this error level (version 40). */
export function qrMaxBytes(level: QrErrorLevel): number {
  return BYTE_CAPACITY[level][39]!;
}

/**
 * Modules across the smallest QR code that holds `byteLength` bytes (21 for version 1, 177 for
 * version 40), or undefined when none does. The printer may pick a smaller version when the
 * data suits numeric or alphanumeric mode; this is the byte-mode upper bound.
 */
export function qrModules(byteLength: number, level: QrErrorLevel): number | undefined {
  const table = BYTE_CAPACITY[level];
  for (let v = 0; v < table.length; v++) {
    if (table[v]! >= byteLength) return 17 + 4 * (v + 1);
  }
  return undefined;
}
