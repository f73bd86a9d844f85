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
  type AgentMessage,
} from './index.js';

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
