import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrintwireError } from '../errors/index.js';
import {
  parseAgentMessage,
  parseCloudMessage,
  serializeMessage,
  PROTOCOL_LIMITS,
  PROTOCOL_VERSION,
  isFatalCloseCode,
  AGENT_CLOSE_CODES,
  originProblem,
  type AgentMessage,
} from './index.js';
import { newId } from '../ids/index.js';

const printer = {
  agentPrinterId: 'p_1',
  name: 'Kitchen',
  alias: 'kitchen',
  uri: 'tcp://10.0.0.5:9100',
  connection: 'tcp',
  kind: 'receipt',
  language: 'escpos',
  paper: '80mm',
  codepage: 'CP858',
  capabilities: ['cut', 'status'],
  status: 'online',
  isDefault: true,
};

const hello = {
  type: 'hello',
  id: 'm1',
  protocolVersion: PROTOCOL_VERSION,
  agentVersion: '0.1.0',
  os: 'linux',
  arch: 'x64',
  hostname: 'till-1',
  printers: [printer],
};

const job = {
  id: 'job_1',
  attempt: 1,
  maxAttempts: 3,
  agentPrinterId: 'p_1',
  type: 'text',
  encoding: 'utf8',
  content: 'hello',
  options: { copies: 2, cut: 'partial' },
  expiresAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('agent protocol parsing', () => {
  test('a valid hello parses into a typed message', () => {
    const result = parseAgentMessage(JSON.stringify(hello));
    assert.equal(result.ok, true);
    if (result.ok && result.message.type === 'hello') {
      assert.equal(result.message.printers[0]!.agentPrinterId, 'p_1');
    }
  });

  test('buffers, buffer lists and array buffers parse like strings', () => {
    const text = JSON.stringify(hello);
    const buf = Buffer.from(text);
    assert.equal(parseAgentMessage(buf).ok, true);
    assert.equal(parseAgentMessage([buf.subarray(0, 10), buf.subarray(10)]).ok, true);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    assert.equal(parseAgentMessage(ab as ArrayBuffer).ok, true);
  });

  test('unknown fields are ignored so that newer peers can add some', () => {
    const result = parseAgentMessage(JSON.stringify({ ...hello, futureField: 1 }));
    assert.equal(result.ok, true);
    assert.equal(result.ok && 'futureField' in result.message, false);
  });

  test('text that is not JSON is refused with INVALID_JSON', () => {
    const result = parseAgentMessage('{"type":');
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.error.code, 'INVALID_JSON');
  });

  test('a JSON value that is not an object is refused', () => {
    for (const raw of ['[]', '1', 'null', '"hello"']) {
      const result = parseAgentMessage(raw);
      assert.equal(!result.ok && result.error.message, 'message must be a JSON object', raw);
    }
  });

  test('an unknown type is named in the error with the message id', () => {
    const result = parseAgentMessage(JSON.stringify({ type: 'job.explode', id: 'm9' }));
    assert.equal(result.ok, false);
    if (!result.ok) {
      assert.equal(result.error.code, 'VALIDATION_FAILED');
      assert.match(result.error.message, /unknown agent message type 'job.explode'/);
      assert.equal(result.error.id, 'm9');
    }
  });

  test('a cloud message type is not accepted from an agent', () => {
    const result = parseAgentMessage(JSON.stringify({ type: 'job.dispatch', job }));
    assert.equal(result.ok, false);
  });

  test('each invalid field is named with its path', () => {
    const bad = { ...hello, printers: [{ ...printer, paper: '100mm' }] };
    const result = parseAgentMessage(JSON.stringify(bad));
    assert.equal(result.ok, false);
    if (!result.ok) assert.deepEqual(result.error.issues[0]!.path, 'printers[0].paper');
  });

  test('a failed job result without an errorCode is refused', () => {
    const base = {
      type: 'job.result',
      id: 'r1',
      jobId: 'job_1',
      attempt: 1,
      at: '2026-01-01T00:00:00.000Z',
    };
    assert.equal(parseAgentMessage(JSON.stringify({ ...base, outcome: 'printed' })).ok, true);
    const failed = parseAgentMessage(JSON.stringify({ ...base, outcome: 'failed' }));
    assert.equal(!failed.ok && failed.error.issues[0]!.path, 'errorCode');
    const coded = { ...base, outcome: 'failed', errorCode: 'PAPER_OUT', retryable: true };
    assert.equal(parseAgentMessage(JSON.stringify(coded)).ok, true);
    const unknownCode = { ...base, outcome: 'failed', errorCode: 'NOPE' };
    assert.equal(parseAgentMessage(JSON.stringify(unknownCode)).ok, false);
  });

  test('a dispatched job needs content that matches its encoding', () => {
    assert.equal(parseCloudMessage(JSON.stringify({ type: 'job.dispatch', job })).ok, true);
    const objectForUtf8 = { ...job, content: { blocks: [] } };
    const r1 = parseCloudMessage(JSON.stringify({ type: 'job.dispatch', job: objectForUtf8 }));
    assert.equal(!r1.ok && r1.error.issues[0]!.message, 'utf8 content must be a string');
    const stringForJson = { ...job, type: 'receipt', encoding: 'json' };
    const r2 = parseCloudMessage(JSON.stringify({ type: 'job.dispatch', job: stringForJson }));
    assert.equal(!r2.ok && r2.error.issues[0]!.message, 'json content must be an object');
  });

  test('copies and attempts are bounded at their edges', () => {
    const at = (options: object, extra: object = {}) =>
      parseCloudMessage(
        JSON.stringify({ type: 'job.dispatch', job: { ...job, options, ...extra } }),
      ).ok;
    assert.equal(at({ copies: PROTOCOL_LIMITS.maxCopies }), true);
    assert.equal(at({ copies: PROTOCOL_LIMITS.maxCopies + 1 }), false);
    assert.equal(at({ copies: 0 }), false);
    assert.equal(at({}, { attempt: 3, maxAttempts: 3 }), true);
    assert.equal(at({}, { attempt: 4, maxAttempts: 3 }), false);
    assert.equal(at({}, { attempt: 10, maxAttempts: 10 }), true);
    assert.equal(at({}, { attempt: 11, maxAttempts: 11 }), false);
  });

  test('a field longer than its cap is refused at the edge', () => {
    const ok = { ...hello, hostname: 'h'.repeat(PROTOCOL_LIMITS.maxFieldChars) };
    const over = { ...hello, hostname: 'h'.repeat(PROTOCOL_LIMITS.maxFieldChars + 1) };
    assert.equal(parseAgentMessage(JSON.stringify(ok)).ok, true);
    const result = parseAgentMessage(JSON.stringify(over));
    assert.equal(!result.ok && result.error.issues[0]!.path, 'hostname');
    const longId = {
      type: 'job.ack',
      jobId: 'j'.repeat(PROTOCOL_LIMITS.maxIdChars + 1),
      attempt: 1,
    };
    assert.equal(parseAgentMessage(JSON.stringify(longId)).ok, false);
  });

  test('ids, texts, printer lists and capabilities are capped at their edges', () => {
    const L = PROTOCOL_LIMITS;
    const ok = (message: object) => parseAgentMessage(JSON.stringify(message)).ok;
    const ack = (jobId: string) => ({ type: 'job.ack', jobId, attempt: 1 });
    assert.equal(ok(ack('j'.repeat(L.maxIdChars))), true);
    assert.equal(ok(ack('j'.repeat(L.maxIdChars + 1))), false);
    assert.equal(ok(ack('')), false);
    const status = (detail: string) => ({
      type: 'printer.status',
      agentPrinterId: 'p_1',
      status: 'error',
      detail,
      at: '2026-01-01T00:00:00.000Z',
    });
    assert.equal(ok(status('d'.repeat(L.maxTextChars))), true);
    assert.equal(ok(status('d'.repeat(L.maxTextChars + 1))), false);
    const printers = (n: number) => ({ type: 'printers', printers: Array(n).fill(printer) });
    assert.equal(ok(printers(L.maxPrinters)), true);
    assert.equal(ok(printers(L.maxPrinters + 1)), false);
    const caps = (n: number) => ({
      type: 'printers',
      printers: [{ ...printer, capabilities: Array(n).fill('cut') }],
    });
    assert.equal(ok(caps(L.maxCapabilities)), true);
    assert.equal(ok(caps(L.maxCapabilities + 1)), false);
  });

  test('a message over the byte limit is refused before it is parsed', () => {
    const limit = 1000;
    const make = (size: number) => {
      const skeleton = JSON.stringify({ type: 'heartbeat', pad: '' }).length;
      return JSON.stringify({ type: 'heartbeat', pad: 'x'.repeat(size - skeleton) });
    };
    assert.equal(make(limit).length, limit);
    const atLimit = parseAgentMessage(make(limit), { maxMessageBytes: limit });
    assert.notEqual(!atLimit.ok && atLimit.error.code, 'PAYLOAD_TOO_LARGE');
    const over = parseAgentMessage(make(limit + 1), { maxMessageBytes: limit });
    assert.equal(!over.ok && over.error.code, 'PAYLOAD_TOO_LARGE');
  });

  test('the default byte limit is 8 MB', () => {
    assert.equal(PROTOCOL_LIMITS.maxMessageBytes, 8 * 1024 * 1024);
    const big = JSON.stringify({ type: 'heartbeat', pad: 'x'.repeat(8 * 1024 * 1024) });
    const result = parseAgentMessage(big);
    assert.equal(!result.ok && result.error.code, 'PAYLOAD_TOO_LARGE');
  });

  test('serializing an oversized message throws PAYLOAD_TOO_LARGE', () => {
    const message = { ...hello, hostname: 'x'.repeat(600) } as AgentMessage;
    assert.equal(typeof serializeMessage(message), 'string');
    assert.throws(
      () => serializeMessage(message, { maxMessageBytes: 500 }),
      (e: unknown) => e instanceof PrintwireError && e.code === 'PAYLOAD_TOO_LARGE',
    );
  });

  test('a welcome with a heartbeat interval outside 1 s to 5 min is refused', () => {
    const welcome = (ms: number) =>
      JSON.stringify({
        type: 'welcome',
        protocolVersion: 1,
        deviceId: 'dev_1',
        heartbeatIntervalMs: ms,
        config: { printers: [] },
      });
    assert.equal(parseCloudMessage(welcome(1000)).ok, true);
    assert.equal(parseCloudMessage(welcome(999)).ok, false);
    assert.equal(parseCloudMessage(welcome(300_000)).ok, true);
    assert.equal(parseCloudMessage(welcome(300_001)).ok, false);
  });

  test('no mutation of a valid message makes the parser throw', () => {
    // A small seeded generator (mulberry32), so that a failure can be replayed.
    let seed = 42;
    const random = () => {
      seed = (seed + 0x6d2b79f5) >>> 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const oddValues: unknown[] = [null, 0, -1, 1e308, '', 'x'.repeat(2000), [], {}, true, [[[]]]];
    const mutate = (value: unknown, depth: number): unknown => {
      if (depth > 4 || value === null || typeof value !== 'object') {
        return random() < 0.3 ? oddValues[Math.floor(random() * oddValues.length)] : value;
      }
      if (Array.isArray(value)) return value.map((v) => mutate(v, depth + 1));
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(value)) {
        if (random() < 0.1) continue;
        out[random() < 0.05 ? `${key}_` : key] = mutate(inner, depth + 1);
      }
      return out;
    };
    const samples = [
      hello,
      { type: 'job.dispatch', job },
      {
        type: 'job.result',
        id: 'r',
        jobId: 'j',
        attempt: 1,
        outcome: 'failed',
        errorCode: 'PAPER_OUT',
        at: '2026-01-01T00:00:00Z',
      },
    ];
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      const text = JSON.stringify(mutate(samples[i % samples.length], 0));
      const cut = random() < 0.1 ? text.slice(0, Math.floor(random() * text.length)) : text;
      const a = parseAgentMessage(cut);
      const c = parseCloudMessage(cut);
      if (!a.ok) refused += 1;
      assert.equal(typeof c.ok, 'boolean');
    }
    assert.ok(refused > 1000, 'most mutations are refused');
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    assert.equal(parseAgentMessage(deep).ok, false);
  });

  test('revoked, deleted, replaced and unsupported-version closes stop reconnection', () => {
    assert.equal(isFatalCloseCode(AGENT_CLOSE_CODES.UNAUTHORIZED), true);
    assert.equal(isFatalCloseCode(AGENT_CLOSE_CODES.UNSUPPORTED_VERSION), true);
    assert.equal(isFatalCloseCode(AGENT_CLOSE_CODES.PROTOCOL_ERROR), false);
    assert.equal(isFatalCloseCode(1001), false);
    assert.equal(isFatalCloseCode(1006), false);
  });
});

describe('local mode on the agent protocol', () => {
  const L = PROTOCOL_LIMITS;
  const template = {
    id: 'tpl_1',
    name: 'Shelf label',
    type: 'zpl',
    content: '^XA^FD{{sku}}^FS^XZ',
    paper: null,
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const local = {
    requireSignature: true,
    unsignedModeEnabled: false,
    devModeEnabled: false,
    allowedOrigins: ['https://shop.example.com'],
    signingKeys: [
      { id: 'sk_1', publicKey: '-----BEGIN PUBLIC KEY-----\nMCo=\n-----END PUBLIC KEY-----\n' },
    ],
  };
  const config = (extra: object) =>
    parseCloudMessage(JSON.stringify({ type: 'config', config: { printers: [], ...extra } }));
  const localJob = {
    id: newId('job', Date.parse('2026-01-01T00:00:00Z')),
    idempotencyKey: null,
    agentPrinterId: 'p_1',
    type: 'zpl',
    templateId: 'tpl_1',
    metadata: { order: '42' },
    state: 'printed',
    attempt: 1,
    errorCode: null,
    errorMessage: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:01.000Z',
    printedAt: '2026-01-01T00:00:01.000Z',
    events: [
      { state: 'queued', errorCode: null, at: '2026-01-01T00:00:00.000Z' },
      { state: 'sending', errorCode: null, at: '2026-01-01T00:00:00.500Z' },
      { state: 'printed', errorCode: null, at: '2026-01-01T00:00:01.000Z' },
    ],
  };
  const report = (job: object) =>
    parseAgentMessage(JSON.stringify({ type: 'job.local', id: 'm1', job }));

  test('a config with templates and local settings parses, and one without them still does', () => {
    const full = config({ templates: [template], local });
    assert.equal(full.ok, true);
    if (full.ok && full.message.type === 'config') {
      assert.equal(full.message.config.templates![0]!.content, template.content);
      assert.deepEqual(full.message.config.local, local);
    }
    assert.equal(config({}).ok, true);
  });

  test('a template of an unknown type or without its fields is refused', () => {
    const r = config({ templates: [{ ...template, type: 'pdf' }] });
    assert.equal(!r.ok && r.error.issues[0]!.path, 'config.templates[0].type');
    const { updatedAt: _, ...noDate } = template;
    assert.equal(config({ templates: [noDate] }).ok, false);
    for (const type of ['zpl', 'epl', 'receipt', 'html']) {
      assert.equal(config({ templates: [{ ...template, type }] }).ok, true, type);
    }
  });

  test('templates, origins and signing keys are capped at their edges', () => {
    const n = (count: number, item: unknown) => Array(count).fill(item);
    assert.equal(config({ templates: n(L.maxTemplates, template) }).ok, true);
    assert.equal(config({ templates: n(L.maxTemplates + 1, template) }).ok, false);
    const origins = (count: number) => ({
      local: { ...local, allowedOrigins: n(count, 'https://a.example') },
    });
    assert.equal(config(origins(L.maxAllowedOrigins)).ok, true);
    const over = config(origins(L.maxAllowedOrigins + 1));
    assert.equal(!over.ok && over.error.issues[0]!.path, 'config.local.allowedOrigins');
    const keys = (count: number) => ({
      local: { ...local, signingKeys: n(count, local.signingKeys[0]) },
    });
    assert.equal(config(keys(L.maxSigningKeys)).ok, true);
    assert.equal(config(keys(L.maxSigningKeys + 1)).ok, false);
    const content = (chars: number) => ({
      templates: [{ ...template, content: 'x'.repeat(chars) }],
    });
    assert.equal(config(content(L.maxTemplateContentChars)).ok, true);
    assert.equal(config(content(L.maxTemplateContentChars + 1)).ok, false);
  });

  test('a job.local report with the whole job record parses', () => {
    const result = report(localJob);
    assert.equal(result.ok, true);
    if (result.ok && result.message.type === 'job.local') {
      assert.equal(result.message.job.id, localJob.id);
      assert.equal(result.message.job.events.length, 3);
    }
    const waiting = { ...localJob, state: 'queued', attempt: 0, printedAt: null, events: [] };
    assert.equal(report(waiting).ok, true);
    const failed = {
      ...localJob,
      state: 'failed',
      errorCode: 'PAPER_OUT',
      errorMessage: 'no paper',
    };
    assert.equal(report(failed).ok, true);
  });

  test('a local job id must be one newId could have made for a job', () => {
    for (const id of [
      'job_1',
      'tpl_' + localJob.id.slice(4),
      localJob.id + 'X',
      localJob.id.toLowerCase(),
    ]) {
      const result = report({ ...localJob, id });
      assert.equal(!result.ok && result.error.issues[0]!.path, 'job.id', id);
    }
  });

  test('a local job with an unknown state, type or error code is refused', () => {
    assert.equal(report({ ...localJob, state: 'done' }).ok, false);
    assert.equal(report({ ...localJob, type: 'svg' }).ok, false);
    assert.equal(report({ ...localJob, errorCode: 'NOPE' }).ok, false);
    const badEvent = {
      ...localJob,
      events: [{ state: 'queued', errorCode: null, at: 'yesterday' }],
    };
    const result = report(badEvent);
    assert.equal(!result.ok && result.error.issues[0]!.path, 'job.events[0].at');
  });

  test('a local job is capped at the edges of metadata, attempts, events and its idempotency key', () => {
    const meta = (count: number) =>
      Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
    assert.equal(report({ ...localJob, metadata: meta(L.maxMetadataKeys) }).ok, true);
    assert.equal(report({ ...localJob, metadata: meta(L.maxMetadataKeys + 1) }).ok, false);
    const value = (chars: number) => ({ ...localJob, metadata: { k: 'v'.repeat(chars) } });
    assert.equal(report(value(L.maxMetadataValueChars)).ok, true);
    assert.equal(report(value(L.maxMetadataValueChars + 1)).ok, false);
    assert.equal(report({ ...localJob, attempt: L.maxAttempts }).ok, true);
    assert.equal(report({ ...localJob, attempt: L.maxAttempts + 1 }).ok, false);
    assert.equal(report({ ...localJob, attempt: -1 }).ok, false);
    const events = (count: number) => ({
      ...localJob,
      events: Array(count).fill(localJob.events[0]),
    });
    assert.equal(report(events(L.maxJobEvents)).ok, true);
    assert.equal(report(events(L.maxJobEvents + 1)).ok, false);
    const key = (chars: number) => ({ ...localJob, idempotencyKey: 'k'.repeat(chars) });
    assert.equal(report(key(L.maxIdempotencyKeyChars)).ok, true);
    assert.equal(report(key(L.maxIdempotencyKeyChars + 1)).ok, false);
    assert.equal(report(key(0)).ok, false);
  });

  test('job.local is an agent message, never one the cloud sends', () => {
    const text = JSON.stringify({ type: 'job.local', id: 'm1', job: localJob });
    assert.equal(parseCloudMessage(text).ok, false);
  });
});

describe('origins of allowedOrigins', () => {
  test('exact http and https origins, with a port or an IP, are accepted', () => {
    for (const origin of [
      'https://shop.example.com',
      'http://localhost:3000',
      'https://127.0.0.1:8443',
      'http://[::1]:8080',
      'https://xn--caf-dma.example',
    ]) {
      assert.equal(originProblem(origin), null, origin);
    }
  });

  test('each way an entry differs from an exact origin is named', () => {
    const cases: Array<[string, RegExp]> = [
      ['https://shop.example.com/', /trailing slash.*did you mean https:\/\/shop.example.com\?/],
      ['https://shop.example.com/pay', /no path/],
      ['https://shop.example.com?x=1', /query/],
      ['https://user@shop.example.com', /no user/],
      ['https://*.example.com', /wildcards/],
      ['*', /wildcards/],
      ['shop.example.com', /must be an origin/],
      ['ftp://shop.example.com', /scheme must be https or http/],
      ['file:///tmp/x', /scheme/],
      ['https://Shop.Example.com', /lowercase.*did you mean https:\/\/shop.example.com\?/],
      ['https://shop.example.com:443', /no default port/],
    ];
    for (const [origin, pattern] of cases)
      assert.match(originProblem(origin) ?? 'accepted', pattern, origin);
  });

  test('an origin is at most 255 characters', () => {
    const at = 'https://' + 'a'.repeat(PROTOCOL_LIMITS.maxOriginChars - 12) + '.com';
    assert.equal(at.length, PROTOCOL_LIMITS.maxOriginChars);
    assert.equal(originProblem(at), null);
    assert.match(originProblem(at.replace('.com', 'a.com')) ?? '', /at most 255/);
  });
});

describe('printer groups on the agent protocol', () => {
  const L = PROTOCOL_LIMITS;
  const at = '2026-01-01T00:00:00.000Z';
  const agent = (message: object) => parseAgentMessage(JSON.stringify(message));
  const cloud = (message: object) => parseCloudMessage(JSON.stringify(message));
  const progress = (extra: object) =>
    agent({ type: 'job.progress', jobId: 'job_1', attempt: 1, ...extra });
  const withdrawn = (extra: object) =>
    agent({ type: 'job.withdrawn', id: 'w1', jobId: 'job_1', at, ...extra });
  const group = {
    id: 'grp_1',
    name: 'Kitchen',
    strategy: 'failover',
    agentPrinterIds: ['p_1', 'p_2'],
  };
  const config = (printerGroups: unknown) =>
    cloud({ type: 'config', config: { printers: [], printerGroups } });

  test('hello announces its features, capped at 32 of 1 to 64 characters', () => {
    const withFeatures = (features: string[]) => agent({ ...hello, features });
    const parsed = withFeatures(['job.withdraw']);
    assert.equal(parsed.ok, true);
    if (parsed.ok && parsed.message.type === 'hello') {
      assert.deepEqual(parsed.message.features, ['job.withdraw']);
    }
    assert.equal(agent(hello).ok, true, 'an older agent sends none');
    assert.equal(withFeatures(Array(L.maxFeatures).fill('f')).ok, true);
    const tooMany = withFeatures(Array(L.maxFeatures + 1).fill('f'));
    assert.equal(!tooMany.ok && tooMany.error.issues[0]!.path, 'features');
    assert.equal(withFeatures(['f'.repeat(L.maxFeatureChars)]).ok, true);
    const tooLong = withFeatures(['f'.repeat(L.maxFeatureChars + 1)]);
    assert.equal(!tooLong.ok && tooLong.error.issues[0]!.path, 'features[0]');
    assert.equal(withFeatures(['']).ok, false);
  });

  test('job.progress says whether the attempt started, and may wait for the printer', () => {
    assert.equal(progress({ stage: 'printing', started: true }).ok, true);
    const notStarted = progress({
      stage: 'retry_scheduled',
      started: false,
      errorCode: 'CONNECTION_REFUSED',
    });
    assert.equal(notStarted.ok, true);
    if (notStarted.ok && notStarted.message.type === 'job.progress') {
      assert.equal(notStarted.message.started, false);
    }
    assert.equal(progress({ stage: 'retry_scheduled' }).ok, true, 'older agents omit started');
    for (const errorCode of ['PRINTER_OFFLINE', 'PAPER_OUT', 'COVER_OPEN']) {
      assert.equal(progress({ stage: 'waiting', started: false, errorCode }).ok, true, errorCode);
    }
    const startedWaiting = progress({ stage: 'waiting', started: true, errorCode: 'PAPER_OUT' });
    assert.equal(!startedWaiting.ok && startedWaiting.error.issues[0]!.path, 'started');
    const noStarted = progress({ stage: 'waiting', errorCode: 'PAPER_OUT' });
    assert.equal(!noStarted.ok && noStarted.error.issues[0]!.path, 'started');
    const noCode = progress({ stage: 'waiting', started: false });
    assert.equal(!noCode.ok && noCode.error.issues[0]!.path, 'errorCode');
    assert.equal(progress({ stage: 'paused', started: false }).ok, false);
    assert.equal(progress({ stage: 'printing', started: 'no' }).ok, false);
  });

  test('job.withdraw is a cloud message with a job id, never an agent one', () => {
    assert.equal(cloud({ type: 'job.withdraw', jobId: 'job_1' }).ok, true);
    assert.equal(cloud({ type: 'job.withdraw', jobId: 'j'.repeat(L.maxIdChars) }).ok, true);
    const long = cloud({ type: 'job.withdraw', jobId: 'j'.repeat(L.maxIdChars + 1) });
    assert.equal(!long.ok && long.error.issues[0]!.path, 'jobId');
    assert.equal(cloud({ type: 'job.withdraw' }).ok, false);
    assert.equal(agent({ type: 'job.withdraw', jobId: 'job_1' }).ok, false);
  });

  test('job.withdrawn is withdrawn exactly when the job had not started', () => {
    assert.equal(withdrawn({ withdrawn: true, reason: 'not_started' }).ok, true);
    for (const reason of ['started', 'finished', 'unknown_job']) {
      assert.equal(withdrawn({ withdrawn: false, reason }).ok, true, reason);
      const contradiction = withdrawn({ withdrawn: true, reason });
      assert.equal(!contradiction.ok && contradiction.error.issues[0]!.path, 'withdrawn', reason);
    }
    assert.equal(withdrawn({ withdrawn: false, reason: 'not_started' }).ok, false);
    assert.equal(withdrawn({ withdrawn: true, reason: 'gone' }).ok, false);
    const noId = agent({
      type: 'job.withdrawn',
      jobId: 'job_1',
      withdrawn: true,
      reason: 'not_started',
      at,
    });
    assert.equal(!noId.ok && noId.error.issues[0]!.path, 'id');
    const text = JSON.stringify({
      type: 'job.withdrawn',
      id: 'w1',
      jobId: 'j',
      withdrawn: false,
      reason: 'started',
      at,
    });
    assert.equal(parseCloudMessage(text).ok, false);
  });

  test('a config carries printer groups, at most 100 of 1 to 20 members each', () => {
    const parsed = config([group, { ...group, id: 'grp_2', strategy: 'round-robin' }]);
    assert.equal(parsed.ok, true);
    if (parsed.ok && parsed.message.type === 'config') {
      assert.deepEqual(parsed.message.config.printerGroups![0], group);
    }
    assert.equal(cloud({ type: 'config', config: { printers: [] } }).ok, true, 'older clouds');
    assert.equal(config(Array(L.maxPrinterGroups).fill(group)).ok, true);
    const tooMany = config(Array(L.maxPrinterGroups + 1).fill(group));
    assert.equal(!tooMany.ok && tooMany.error.issues[0]!.path, 'config.printerGroups');
    const members = (n: number) => config([{ ...group, agentPrinterIds: Array(n).fill('p_1') }]);
    assert.equal(members(L.maxGroupMembers).ok, true);
    const over = members(L.maxGroupMembers + 1);
    assert.equal(!over.ok && over.error.issues[0]!.path, 'config.printerGroups[0].agentPrinterIds');
    assert.equal(members(0).ok, false);
    assert.equal(members(1).ok, true);
    const strategy = config([{ ...group, strategy: 'random' }]);
    assert.equal(
      !strategy.ok && strategy.error.issues[0]!.path,
      'config.printerGroups[0].strategy',
    );
    assert.equal(config([{ ...group, name: '' }]).ok, false);
    assert.equal(config([{ ...group, id: 'g'.repeat(L.maxIdChars + 1) }]).ok, false);
  });
});
