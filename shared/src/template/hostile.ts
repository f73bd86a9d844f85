/**
 * A tiny seeded generator of hostile template data for the injection property tests: strings
 * made of printer commands, quotes, markup, control characters and very long runs. Seeded so a
 * failure names a seed that reproduces it.
 */

/** mulberry32: a small, fast, well-distributed 32-bit PRNG. Returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '^XA^FDx^FS^XZ',
  '^XZ',
  '~JR',
  '~DGR:X.GRF,4,1,FFFF',
  '^',
  '~',
  '_',
  '_5E',
  '\\',
  '\\5E',
  '"',
  "'",
  '`',
  '=',
  '\n',
  '\r\n',
  '\r',
  'P1\n',
  '\nA10,10,0,3,1,1,N,"x"\n',
  '</script>',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '" onmouseover="alert(1)',
  '<!--',
  '{{x}}',
  '}}',
  '{"type":"cut"}',
  '"},{"type":"raw","data":"G0A="},{"type":"text","value":"',
  '],"x":[',
  '\u001b@',
  '\u001dV\u0000',
  '\u0000',
  '\u0007',
  '\u007f',
  '\u2028',
  '\ud83d\ude00',
  '\ud800',
  'é',
  'Kreyòl ak Français',
  '12',
  '-3.5',
  'true',
  'null',
  ' ',
  ',',
];

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

/** A hostile string: 1 to 6 pieces, sometimes one repeated into a very long run. */
export function hostileString(random: () => number): string {
  const count = 1 + Math.floor(random() * 6);
  let out = '';
  for (let i = 0; i < count; i++) {
    const piece = pick(random, PIECES);
    out += random() < 0.05 ? piece.repeat(500 + Math.floor(random() * 2000)) : piece;
  }
  return out;
}

/** A hostile value: mostly strings, sometimes numbers, booleans, null, lists or objects. */
export function hostileValue(random: () => number, depth = 0): unknown {
  const r = random();
  if (r < 0.7 || depth > 2) return hostileString(random);
  if (r < 0.78) return pick(random, [0, -1, 3.25, 1e21, Number.MAX_SAFE_INTEGER]);
  if (r < 0.84) return random() < 0.5;
  if (r < 0.88) return null;
  if (r < 0.94) return [hostileValue(random, depth + 1), hostileValue(random, depth + 1)];
  return {
    [hostileString(random)]: hostileValue(random, depth + 1),
    k: hostileValue(random, depth + 1),
  };
}

/**
 * Replaces every leaf of `shape` (a harmless data object) by a hostile value, keeping lists,
 * objects and booleans so that sections repeat the same number of times. With `stringsOnly`,
 * leaves become non-empty strings, so that sections over them stay shown too.
 */
export function hostileLike(
  shape: unknown,
  random: () => number,
  { stringsOnly = false }: { stringsOnly?: boolean } = {},
): unknown {
  if (Array.isArray(shape)) return shape.map((v) => hostileLike(v, random, { stringsOnly }));
  if (typeof shape === 'object' && shape !== null) {
    return Object.fromEntries(
      Object.entries(shape).map(([k, v]) => [k, hostileLike(v, random, { stringsOnly })]),
    );
  }
  if (typeof shape === 'boolean') return shape;
  return stringsOnly ? hostileString(random) : hostileValue(random);
}
