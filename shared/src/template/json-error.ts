/**
 * Finds where JSON text first goes wrong. JSON.parse's messages differ between Node versions and
 * not all give a position; receipt render errors must name the line and column of the output.
 */

/** The offset of the first syntax error in `text` and what was expected there. */
export function findJsonError(text: string): { offset: number; expected: string } | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text.charAt(i))) i++;
  };
  const fail = (expected: string): never => {
    throw { offset: i, expected };
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail('a JSON value');
  };
  const string = () => {
    i++;
    for (;;) {
      if (i >= text.length) fail('a closing quote');
      const c = text.charCodeAt(i);
      if (c === 34) return void i++;
      if (c < 32) fail('no control character in a string');
      if (c === 92) {
        const e = text.charAt(i + 1);
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6;
        else if ('"\\/bfnrt'.includes(e) && e !== '') i += 2;
        else fail('a valid escape');
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m === null || m[0] === '' || m[0] === '-') fail('a JSON value');
    i += m![0].length;
  };
  const value = (depth: number): void => {
    ws();
    const c = text.charAt(i);
    if (c === '{') {
      i++;
      ws();
      if (text.charAt(i) === '}') return void i++;
      for (;;) {
        ws();
        if (text.charAt(i) !== '"') fail('a quoted key');
        string();
        ws();
        if (text.charAt(i) !== ':') fail('":"');
        i++;
        value(depth + 1);
        ws();
        if (text.charAt(i) === ',') i++;
        else if (text.charAt(i) === '}') return void i++;
        else fail('"," or "}"');
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text.charAt(i) === ']') return void i++;
      for (;;) {
        value(depth + 1);
        ws();
        if (text.charAt(i) === ',') i++;
        else if (text.charAt(i) === ']') return void i++;
        else fail('"," or "]"');
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else number();
  };
  try {
    value(0);
    ws();
    if (i < text.length) fail('the end of the document');
    return undefined;
  } catch (error) {
    if (error instanceof RangeError) return { offset: i, expected: 'less deeply nested JSON' };
    return error as { offset: number; expected: string };
  }
}
