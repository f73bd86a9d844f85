/**
 * Finds where a value sits in JSON text, so that a receipt that does not validate can be reported
 * with the line and column of the offending value in the rendered output.
 */

/** Splits a path as users write it (`blocks[12].size`) into keys and indexes. */
export function parsePath(path: string): Array<string | number> {
  const parts: Array<string | number> = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    parts.push(m[2] === undefined ? m[1]! : Number(m[2]));
  }
  return parts;
}

/**
 * The offset in `text` (valid JSON) of the value at `path`, or of the deepest object or list on
 * the way when the rest is missing (a missing field points at the object that lacks it).
 */
export function locateJsonPath(text: string, path: ReadonlyArray<string | number>): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const skipString = () => {
    i++;
    while (i < text.length && text.charAt(i) !== '"') i += text.charAt(i) === '\\' ? 2 : 1;
    i++;
  };
  const skipValue = (): void => {
    ws();
    const c = text.charAt(i);
    if (c === '"') return skipString();
    if (c !== '{' && c !== '[') {
      while (i < text.length && !',}] \t\n\r'.includes(text.charAt(i))) i++;
      return;
    }
    i++;
    for (;;) {
      ws();
      const d = text.charAt(i);
      if (d === '}' || d === ']' || i >= text.length) return void i++;
      if (d === ',') i++;
      else if (c === '{') {
        skipString();
        ws();
        i++; // the colon
        skipValue();
      } else skipValue();
    }
  };
  // Walks down the path; returns the offset of the value reached.
  const walk = (depth: number): number => {
    ws();
    const start = i;
    if (depth === path.length) return start;
    const want = path[depth];
    const c = text.charAt(i);
    if (c !== '{' && c !== '[') return start;
    i++;
    let index = 0;
    for (;;) {
      ws();
      const d = text.charAt(i);
      if (d === '}' || d === ']' || i >= text.length) return start;
      if (d === ',') {
        i++;
        continue;
      }
      if (c === '{') {
        const keyStart = i;
        skipString();
        const key = JSON.parse(text.slice(keyStart, i)) as string;
        ws();
        i++; // the colon
        if (key === want) return walk(depth + 1);
      } else if (index++ === want) return walk(depth + 1);
      skipValue();
    }
  };
  return walk(0);
}
