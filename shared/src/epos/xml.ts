/**
 * A small, strict XML reader for ePOS-Print documents: elements, attributes, character data,
 * the five predefined entities and character references; an XML declaration, comments and
 * processing instructions are skipped. Anything else (a mismatched tag, an unquoted attribute,
 * a stray `<` or `&`) is an XmlError naming the offset. No DTDs: ePOS documents have none.
 */
export interface XmlElement {
  name: string;
  attributes: Map<string, string>;
  children: XmlNode[];
}
export type XmlNode = XmlElement | string;

export class XmlError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at character ${offset}`);
  }
}

const NAME = /[A-Za-z_:][-A-Za-z0-9_:.]*/y;
const SPACE = /\s*/y;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new XmlError(message, this.pos);
  }
  skipSpace(): void {
    SPACE.lastIndex = this.pos;
    SPACE.exec(this.text);
    this.pos = SPACE.lastIndex;
  }
  name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.text);
    if (!m) this.fail('a name was expected');
    this.pos = NAME.lastIndex;
    return m[0];
  }
  expect(s: string): void {
    if (!this.text.startsWith(s, this.pos)) this.fail(`"${s}" was expected`);
    this.pos += s.length;
  }
  /** Skips `<?…?>` and `<!--…-->` at the current position; false when there is none. */
  skipMisc(): boolean {
    for (const [open, close] of [
      ['<?', '?>'],
      ['<!--', '-->'],
    ] as const) {
      if (this.text.startsWith(open, this.pos)) {
        const end = this.text.indexOf(close, this.pos + open.length);
        if (end === -1) this.fail(`${open} without ${close}`);
        this.pos = end + close.length;
        return true;
      }
    }
    return false;
  }
}

function decodeText(r: Reader, raw: string, at: number): string {
  if (raw.includes('<')) throw new XmlError('"<" in an attribute value', at);
  return raw.replace(/&([^;]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError('a bare "&"', at);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isInteger(code) || code < 1 || code > 0x10ffff) {
        throw new XmlError(`character reference ${whole} is invalid`, at);
      }
      return String.fromCodePoint(code);
    }
    const entity = ENTITIES[ref];
    if (entity === undefined) throw new XmlError(`entity ${whole} is unknown`, at);
    return entity;
  });
}

function element(r: Reader): XmlElement {
  r.expect('<');
  const name = r.name();
  const attributes = new Map<string, string>();
  for (;;) {
    const before = r.pos;
    r.skipSpace();
    const c = r.text[r.pos];
    if (c === '/' || c === '>') break;
    if (r.pos === before) r.fail('space was expected between attributes');
    const attr = r.name();
    r.skipSpace();
    r.expect('=');
    r.skipSpace();
    const quote = r.text[r.pos];
    if (quote !== '"' && quote !== "'") r.fail(`attribute ${attr}'s value must be quoted`);
    const end = r.text.indexOf(quote, r.pos + 1);
    if (end === -1) r.fail(`attribute ${attr}'s value is not closed`);
    if (attributes.has(attr)) r.fail(`attribute ${attr} is repeated`);
    attributes.set(attr, decodeText(r, r.text.slice(r.pos + 1, end), r.pos));
    r.pos = end + 1;
  }
  const children: XmlNode[] = [];
  if (r.text.startsWith('/>', r.pos)) {
    r.pos += 2;
    return { name, attributes, children };
  }
  r.expect('>');
  for (;;) {
    const lt = r.text.indexOf('<', r.pos);
    if (lt === -1) r.fail(`<${name}> is not closed`);
    if (lt > r.pos) children.push(decodeText(r, r.text.slice(r.pos, lt), r.pos));
    r.pos = lt;
    if (r.text.startsWith('</', r.pos)) {
      r.pos += 2;
      const closing = r.name();
      if (closing !== name) r.fail(`</${closing}> closes <${name}>`);
      r.skipSpace();
      r.expect('>');
      return { name, attributes, children };
    }
    if (r.text.startsWith('<![CDATA[', r.pos)) {
      const end = r.text.indexOf(']]>', r.pos);
      if (end === -1) r.fail('CDATA section is not closed');
      children.push(r.text.slice(r.pos + 9, end));
      r.pos = end + 3;
      continue;
    }
    if (r.skipMisc()) continue;
    children.push(element(r));
  }
}

/** Parses a document with one root element; throws XmlError when it is not well-formed. */
export function parseXml(text: string): XmlElement {
  const r = new Reader(text.startsWith('\ufeff') ? text.slice(1) : text);
  r.skipSpace();
  while (r.skipMisc()) r.skipSpace();
  const root = element(r);
  r.skipSpace();
  while (r.skipMisc()) r.skipSpace();
  if (r.pos !== r.text.length) r.fail('content after the root element');
  return root;
}
