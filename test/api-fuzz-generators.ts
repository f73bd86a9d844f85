/**
 * Request generators for the API fuzzer (api-fuzz.test.ts): for one operation of /openapi.json,
 * requests that are valid, at the edges of its limits, or malformed in the ways a hostile or
 * broken client sends them (wrong types, huge and deep bodies, bad JSON, broken unicode, path
 * tricks, bad cursors and dates, every kind of bad credential).
 */
import fc from 'fast-check';

type Json = Record<string, unknown>;

export interface OpenApiOperation {
  method: string;
  path: string;
  security?: unknown[];
  'x-scope'?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Json }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema?: Json }> }>;
}

/** What the fuzzer knows of the organization it attacks. */
export interface Fixture {
  orgId: string;
  /** Credentials by kind; `valid` is chosen by the operation (API key or dashboard token). */
  liveKey: string;
  testKey: string;
  /** A live key lacking every scope but printers:read. */
  narrowKey: string;
  revokedKey: string;
  access: string;
  expiredAccess: string;
  /** Ids that exist (jobs of both modes, printers, templates, webhooks, users...). */
  ids: string[];
  components: Record<string, Json>;
  /** Known-valid bodies by `method path` (a job request the schema alone cannot describe). */
  examples: Record<string, unknown[]>;
  /** The body limit the cloud was started with. */
  maxBodyBytes: number;
}

export interface FuzzRequest {
  method: string;
  /** Raw request target, sent as is (no normalisation of `..` or `%2F`). */
  path: string;
  /** True when the path was tampered with so that it may match no route. */
  trickedPath: boolean;
  headers: Record<string, string>;
  body?: Buffer;
  /** What the generator meant, for the failure message. */
  label: string;
}

const isDashboard = (path: string) => !path.startsWith('/v1/') && !path.startsWith('/agent/');

/** The credential an operation needs, and every wrong one. */
function credential(
  op: OpenApiOperation,
  fx: Fixture,
  hostile: boolean,
): fc.Arbitrary<[string, string | undefined]> {
  const needsAuth = (op.security ?? []).length > 0;
  const valid = isDashboard(op.path)
    ? fc.constant(fx.access)
    : fc.constantFrom(fx.liveKey, fx.testKey);
  const bad: Array<fc.Arbitrary<[string, string | undefined]>> = [
    fc.constant(['none', undefined]),
    fc.constantFrom<[string, string]>(
      ['malformed', 'Bearer'],
      ['malformed', 'Bearer '],
      ['malformed', 'Basic dXNlcjpwYXNz'],
      ['malformed', `Bearer ${fx.liveKey} extra`],
      ['malformed', 'bearer\tpw_live_'],
      ['unknown', 'Bearer pw_live_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['unknown', 'Bearer pw_test_'],
      ['unknown', `Bearer ${'x'.repeat(5000)}`],
      ['unknown', 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'],
      ['revoked', `Bearer ${fx.revokedKey}`],
      ['wrong scope', `Bearer ${fx.narrowKey}`],
      ['expired token', `Bearer ${fx.expiredAccess}`],
      ['other kind', `Bearer ${isDashboard(op.path) ? fx.liveKey : fx.access}`],
    ),
  ];
  const good = valid.map((v): [string, string | undefined] => ['valid', `Bearer ${v}`]);
  if (hostile) return fc.oneof(...bad);
  return needsAuth ? good : fc.constant<[string, string | undefined]>(['none', undefined]);
}

/** Strings that break parsers: lone surrogates, NUL, overlong, RTL marks, format look-alikes. */
const nastyString = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\ud800',
  'a\udfffb',
  '\u202e\u0645',
  '💥'.repeat(300),
  'x'.repeat(10_001),
  '../../etc/passwd',
  '%00',
  '<script>alert(1)</script>',
  "'; DROP TABLE jobs; --",
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '2026-02-30T25:61:00Z',
  '9999-12-31T23:59:59.999Z',
  '0000-00-00',
  '{"a":1}',
  '__proto__',
);

/** A JSON value of any type, shallow. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 63), 1e308, 0.5),
  fc.string({ maxLength: 20 }),
  nastyString,
  fc.constant([]),
  fc.constant({}),
  fc.constant({ __proto__: { admin: true }, constructor: { prototype: {} } }),
);

function resolve(schema: Json, fx: Fixture): Json {
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const name = ref.replace('#/components/schemas/', '');
    return resolve(fx.components[name] ?? {}, fx);
  }
  return schema;
}

/** A value that (mostly) satisfies `schema`, at its edges about half the time. */
export function fromSchema(raw: Json, fx: Fixture, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw, fx);
  if (depth > 6) return anyJson;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives && alternatives.length > 0) {
    return fc.oneof(...alternatives.map((s) => fromSchema(s, fx, depth + 1)));
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return fromSchema(schema.allOf[0] as Json, fx, depth + 1);
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFrom(schema, fx);
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? schema.maximum : 100_000;
      const edges = [min, max, min - 1, max + 1].filter((n) => Number.isFinite(n));
      return fc.oneof(
        type === 'integer'
          ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
          : fc.double({ min, max, noNaN: true }),
        fc.constantFrom(...edges),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = (schema.items as Json | undefined) ?? {};
      const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxItems = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, 6);
      return fc.array(fromSchema(items, fx, depth + 1), {
        minLength: Math.min(minItems, maxItems),
        maxLength: Math.max(minItems, maxItems),
      });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Json>;
      const required = new Set((schema.required ?? []) as string[]);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, s] of Object.entries(properties))
        record[name] = fromSchema(s, fx, depth + 1);
      const requiredKeys = Object.keys(record).filter((k) => required.has(k));
      return fc.record(record, { requiredKeys });
    }
    default:
      return anyJson;
  }
}

function stringFrom(schema: Json, fx: Fixture): fc.Arbitrary<string> {
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : 40;
  const described = typeof schema.description === 'string' ? schema.description : '';
  const format =
    (schema.format as string | undefined) ?? (/ISO 8601/.test(described) ? 'date-time' : undefined);
  const byFormat: Record<string, fc.Arbitrary<string>> = {
    email: fc.emailAddress(),
    uri: fc.constantFrom('https://example.com/a.pdf', 'http://127.0.0.1:1/', 'ftp://x', 'https://'),
    url: fc.constantFrom('https://example.com/a.pdf', 'http://10.0.0.1/', 'javascript:alert(1)'),
    'date-time': fc.constantFrom(
      '2026-03-10T10:00:00.000Z',
      '2026-03-10T10:00:00Z',
      '1970-01-01T00:00:00.000Z',
      '2026-13-40T99:00:00Z',
    ),
  };
  const edges = [
    'x'.repeat(minLength),
    'x'.repeat(Math.min(maxLength, 100_000)),
    'x'.repeat(Math.min(maxLength + 1, 100_001)),
    'x'.repeat(Math.max(minLength - 1, 0)),
  ];
  const pattern = typeof schema.pattern === 'string' ? safeRegExp(schema.pattern) : undefined;
  const plain = pattern
    ? fc.stringMatching(pattern, { maxLength: Math.min(maxLength, 60) })
    : fc.string({ minLength, maxLength: Math.min(maxLength, 60) });
  return fc.oneof(
    { arbitrary: byFormat[format ?? ''] ?? plain, weight: 3 },
    { arbitrary: fc.constantFrom(...edges), weight: 1 },
    { arbitrary: fc.constantFrom(...fx.ids), weight: 1 },
    { arbitrary: nastyString, weight: 1 },
  );
}

/** Percent-encodes `v`; a lone surrogate (which has no UTF-8 form) becomes its raw CESU bytes. */
function enc(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return `${encodeURIComponent(v.replace(/[\ud800-\udfff]/g, ''))}%ED%A0%80`;
  }
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

/** A value for a path parameter: an existing id, or a trick. */
function pathValue(name: string, fx: Fixture, hostile: boolean): fc.Arbitrary<[string, boolean]> {
  const real = name === 'orgId' ? fc.constant(fx.orgId) : fc.constantFrom(...fx.ids, fx.orgId);
  const plain = fc.constantFrom('job_00000000000000000000000000', 'x', '0', '-1', 'null', '%00');
  const tricks = fc.constantFrom(
    '..',
    '.',
    '..%2F..%2Fhealth',
    '%2e%2e',
    'a%2Fb',
    '%252F',
    '%E0%A4%A',
    '%ED%A0%80',
    '%C0%AF',
    'x'.repeat(20_000),
    '%F0%9F%92%A5',
    ';a=b',
    'id%3Fx%3D1',
  );
  if (!hostile) return real.map((v): [string, boolean] => [enc(v), false]);
  return fc.oneof(
    plain.map((v): [string, boolean] => [v, false]),
    // A trick may turn the path into another route, or none.
    tricks.map((v): [string, boolean] => [v, true]),
  );
}

/** A query string from the operation's parameters: schema-shaped values, or junk ones. */
function queryString(op: OpenApiOperation, fx: Fixture, hostile: boolean): fc.Arbitrary<string> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const junk = fc.constantFrom(
    'abc',
    '',
    '-1',
    '0',
    '101',
    '1.5',
    '99999999999999999999',
    '%ED%A0%80',
    '%',
    'not-a-cursor',
    'eyJpZCI6Ik5PUEUifQ',
    Buffer.from('{"createdAt":"x","id":1}').toString('base64url'),
    '2026-02-30',
    '2026-03-10T10:00:00Z',
    'yesterday',
    '1e3',
    'x'.repeat(3000),
  );
  const shaped = (p: { schema?: Json }) =>
    fromSchema(p.schema ?? {}, fx).map((v) =>
      enc(typeof v === 'string' ? v : (JSON.stringify(v) ?? '')),
    );
  const one = (p: { name: string; schema?: Json }) =>
    (hostile ? fc.oneof(shaped(p), junk) : shaped(p)).map((v) => `${enc(p.name)}=${v}`);
  // A valid request leaves most optional parameters out, so that it passes every check at once.
  const parts = params.map((p) =>
    fc.oneof(
      { arbitrary: fc.constant(undefined), weight: hostile ? 1 : 3 },
      { arbitrary: one(p), weight: 1 },
    ),
  );
  const extras = hostile
    ? fc.constantFrom(
        '',
        'limit=1&limit=2',
        'unknown=1',
        'metadata.k=v',
        'a[b]=c',
        'status[]=queued',
      )
    : fc.constant('');
  return fc.tuple(fc.tuple(...parts), extras).map(([values, extra]) => {
    const all = [...values.filter((v): v is string => v !== undefined), extra].filter(Boolean);
    return all.length ? `?${all.join('&')}` : '';
  });
}

/** A request body: schema-shaped or malformed. Returns [label, bytes, content-type]. */
type Body = [string, Buffer | undefined, string | undefined];

function body(op: OpenApiOperation, fx: Fixture, hostile: boolean): fc.Arbitrary<Body> {
  const schema = op.requestBody?.content['application/json']?.schema;
  const json = 'application/json';
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
  const malformed = fc.constantFrom<[string, Buffer | undefined, string | undefined]>(
    ['bad json', Buffer.from('{"a":'), json],
    ['bad json', Buffer.from("{'a':1}"), json],
    ['bad json', Buffer.from('\u0000'), json],
    ['empty body', Buffer.alloc(0), json],
    ['json null', Buffer.from('null'), json],
    ['json array', Buffer.from('[]'), json],
    ['json number', Buffer.from('1'), json],
    ['json string', Buffer.from('"x"'), json],
    ['deep', Buffer.from(deep(20_000)), json],
    ['deep object', Buffer.from('{"a":'.repeat(5000) + '1' + '}'.repeat(5000)), json],
    ['huge', Buffer.from(JSON.stringify({ data: 'x'.repeat(fx.maxBodyBytes + 10) })), json],
    [
      'invalid utf-8',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xc0, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
      json,
    ],
    ['lone surrogate', Buffer.from('{"name":"\\ud800","data":"\\udfff"}'), json],
    ['wrong content-type', Buffer.from('{"a":1}'), 'text/plain'],
    ['form body', Buffer.from('a=1&b=2'), 'application/x-www-form-urlencoded'],
    ['bad charset', Buffer.from('{}'), 'application/json; charset=klingon'],
    ['utf-16', Buffer.from('{"a":1}', 'utf16le'), 'application/json; charset=utf-16'],
    ['gzip lie', Buffer.from('{}'), json],
  );
  const examples = fx.examples[`${op.method} ${op.path}`] ?? [];
  const shaped = schema
    ? fc.oneof(
        fromSchema(schema, fx).map((v): Body => [
          'schema-shaped',
          Buffer.from(JSON.stringify(v) ?? 'null'),
          json,
        ]),
        ...(examples.length
          ? [
              fc
                .constantFrom(...examples)
                .map((v): Body => ['example', Buffer.from(JSON.stringify(v)), json]),
            ]
          : []),
      )
    : fc.constant<Body>(['no body', undefined, undefined]);
  if (!hostile) return shaped;
  const wrongTypes = schema
    ? fc
        .record({ value: fromSchema(schema, fx), key: fc.string({ maxLength: 8 }), junk: anyJson })
        .map(({ value, key, junk }): [string, Buffer | undefined, string | undefined] => {
          const obj =
            typeof value === 'object' && value !== null && !Array.isArray(value)
              ? { ...value }
              : {};
          const keys = Object.keys(obj);
          const target = keys.length ? keys[key.length % keys.length]! : key;
          (obj as Json)[target] = junk;
          return ['wrong type', Buffer.from(JSON.stringify(obj)), json];
        })
    : shaped;
  return fc.oneof(wrongTypes, malformed);
}

/** The part of a request made hostile; the others stay valid, so each reaches its check. */
const HOSTILE = ['nothing', 'credential', 'path', 'query', 'body', 'everything'] as const;

/** Every kind of request for `op`: valid, or hostile in one part (or all at once). */
export function requestFor(op: OpenApiOperation, fx: Fixture): fc.Arbitrary<FuzzRequest> {
  const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const parts = HOSTILE.filter((h) => h !== 'path' || names.length > 0);
  return fc.constantFrom(...parts).chain((part) => {
    const is = (p: (typeof HOSTILE)[number]) => part === p || part === 'everything';
    return fc
      .record({
        cred: credential(op, fx, is('credential')),
        params: fc.tuple(...names.map((n) => pathValue(n, fx, is('path')))),
        query: queryString(op, fx, is('query')),
        body: body(op, fx, is('body')),
        method: is('everything')
          ? fc.constantFrom(op.method.toUpperCase(), op.method === 'get' ? 'HEAD' : 'OPTIONS')
          : fc.constant(op.method.toUpperCase()),
      })
      .map(({ cred, params, query, body: [bodyLabel, bytes, type], method }) => {
        let i = 0;
        const path = op.path.replace(/\{\w+\}/g, () => params[i++]![0]);
        const headers: Record<string, string> = {};
        if (cred[1] !== undefined) headers.authorization = cred[1];
        if (type) headers['content-type'] = type;
        if (bodyLabel === 'gzip lie') headers['content-encoding'] = 'gzip';
        return {
          method,
          path: path + query,
          trickedPath: params.some((p) => p[1]),
          headers,
          ...(bytes !== undefined ? { body: bytes } : {}),
          label: `hostile ${part}: ${cred[0]} credential, ${bodyLabel}`,
        };
      });
  });
}
