// The API under hostile input: for every operation of /openapi.json, fast-check generates valid,
// edge and malformed requests (see api-fuzz-generators.ts) and each answer must be well formed:
// no 5xx, a status the document declares for the operation, the spec's error body with the
// response's request id, and a body valid against the schema declared for its status.
// Seeded: FUZZ_SEED=N replays a run; FUZZ_RUNS sets the runs per operation (`npm run fuzz`).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import fc from 'fast-check';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startHarness, type Harness } from '@printwire/cloud/testing';
import {
  requestFor,
  type Fixture,
  type FuzzRequest,
  type OpenApiOperation,
} from './api-fuzz-generators.js';

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const runs = Number(process.env.FUZZ_RUNS ?? 10);
const maxBodyBytes = 64 * 1024;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** Sends `req` as is: no URL normalisation, raw bytes. An event stream is read up to its headers. */
function send(base: string, req: FuzzRequest): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        headers: {
          ...req.headers,
          ...(req.body ? { 'content-length': String(req.body.length) } : {}),
        },
      },
      (res) => {
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          res.destroy();
          resolve({ status: res.statusCode!, headers: res.headers, text: '' });
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer (413) and close before reading a huge body.
    r.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EPIPE' || err.code === 'ECONNRESET' ? undefined : reject(err),
    );
    r.end(req.body);
  });
}

let h: Harness;
let fx: Fixture;
const operations: OpenApiOperation[] = [];
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats.default(ajv);

/** The problems of one answer to `req` made for `op`; empty when it is well formed. */
function problems(op: OpenApiOperation, req: FuzzRequest, answer: Answer): string[] {
  const found: string[] = [];
  const declared = op.responses[String(answer.status)];
  const strayTrick = req.trickedPath && answer.status === 404;
  const other = req.method !== op.method.toUpperCase();
  if (answer.status >= 500 && !declared) found.push(`answered ${answer.status}`);
  if (!declared && !strayTrick && !other) found.push(`status ${answer.status} is not declared`);
  const type = String(answer.headers['content-type'] ?? '');
  if (req.method === 'HEAD' || answer.status === 204) return found;
  let body: unknown;
  if (type.includes('json')) {
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [...found, `a ${type} body that is not JSON: ${answer.text.slice(0, 80)}`];
    }
  }
  if (answer.status >= 400) {
    if (!type.includes('json')) return [...found, `an error without a JSON body (${type})`];
    const e = body as { error?: Record<string, unknown>; requestId?: unknown };
    const ok =
      typeof e?.error?.code === 'string' &&
      typeof e.error.message === 'string' &&
      typeof e.error.retryable === 'boolean';
    if (!ok) found.push(`not the spec's error body: ${answer.text.slice(0, 200)}`);
    if (e?.requestId !== answer.headers['x-request-id'] || typeof e?.requestId !== 'string') {
      found.push(
        `requestId ${String(e?.requestId)} differs from x-request-id ${String(answer.headers['x-request-id'])}`,
      );
    }
  }
  const schema = declared?.content?.['application/json']?.schema;
  if (schema && type.includes('json') && !other) {
    const validate = validator(schema);
    if (!validate(body)) {
      found.push(
        `body does not match the ${answer.status} schema: ${ajv.errorsText(validate.errors)}; ${answer.text.slice(0, 300)}`,
      );
    }
  } else if (declared && !schema && type.includes('json') && answer.status !== 200) {
    found.push(`a JSON body where ${answer.status} declares none`);
  }
  return found;
}

const validators = new Map<string, ValidateFunction>();
function validator(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) validators.set(key, (v = ajv.compile(rewriteRefs(schema))));
  return v;
}

before(async () => {
  h = await startHarness({
    limits: { maxBodyBytes, rateLimitPerSecond: 1e9, rateLimitBurst: 1e9 },
  });
  const doc = (await h.call('GET', '/openapi.json')).body as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    components: { schemas: Record<string, Record<string, unknown>> };
  };
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) operations.push({ ...op, method, path });
  }
  ajv.addSchema({ $id: 'components', $defs: rewriteRefs(doc.components.schemas) });

  const org = await h.org();
  const login = async () => {
    const res = await h.call('POST', '/auth/login', {
      body: {
        email: (await h.store.accounts.getAccount(org.userId))!.user.email,
        password: 'correct horse battery',
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.accessToken as string;
  };
  const expiredAccess = await login();
  h.clock.advance(60 * 60_000);
  const access = await login();
  const dash = (method: string, path: string, body?: unknown) =>
    h.call(method, `/orgs/${org.orgId}${path}`, {
      headers: { authorization: `Bearer ${access}` },
      body,
    });
  const narrow = await dash('POST', '/api-keys', {
    name: 'narrow',
    mode: 'live',
    scopes: ['printers:read'],
  });
  const revoked = await dash('POST', '/api-keys', {
    name: 'gone',
    mode: 'live',
    scopes: ['jobs:read', 'jobs:write'],
  });
  assert.equal(revoked.status, 201, JSON.stringify(revoked.body));
  assert.equal(narrow.status, 201, JSON.stringify(narrow.body));
  await dash('DELETE', `/api-keys/${revoked.body.apiKey.id}`);

  const ids = new Set<string>([org.userId]);
  for (const key of [org.liveKey, org.testKey]) {
    const job = await h.call('POST', '/v1/jobs', {
      key,
      body: { type: 'raw', encoding: 'base64', data: 'SGVsbG8K' },
    });
    if (job.body?.id) ids.add(job.body.id);
    const printers = await h.call('GET', '/v1/printers', { key });
    for (const p of printers.body?.data ?? []) ids.add(p.id);
  }
  const webhook = await dash('POST', '/webhooks', {
    url: 'https://example.com/hook',
    events: ['job.printed'],
  });
  if (webhook.body?.id) ids.add(webhook.body.id);
  const template = await dash('POST', '/templates', {
    name: 'T',
    type: 'receipt',
    content: '{"blocks":[]}',
  });
  if (template.body?.id) ids.add(template.body.id);
  const jobs = [
    { type: 'raw', encoding: 'base64', data: 'SGVsbG8K' },
    { type: 'raw', encoding: 'base64', data: 'SGVsbG8K', printerId: [...ids][1] },
    {
      type: 'pdf',
      encoding: 'url',
      data: 'https://example.com/a.pdf',
      options: { maxAttempts: 10 },
    },
  ];
  fx = {
    orgId: org.orgId,
    liveKey: org.liveKey,
    testKey: org.testKey,
    narrowKey: narrow.body.key,
    revokedKey: revoked.body.key,
    access,
    expiredAccess,
    ids: [...ids],
    components: doc.components.schemas,
    examples: {
      'post /v1/jobs': jobs,
      'post /orgs/{orgId}/jobs': jobs.map((j) => ({ ...j, mode: 'test' })),
    },
    maxBodyBytes,
  };
});

after(() => h?.close());

/** `#/components/schemas/X` inside the components → `#/X` of the `components` schema. */
function rewriteRefs(schemas: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(schemas).replaceAll('"#/components/schemas/', '"components#/$defs/'),
  ) as Record<string, unknown>;
}

describe(`every operation of /openapi.json answers hostile requests well (seed ${seed})`, () => {
  test('each operation, run after run, answers with a declared, well-formed response', async () => {
    assert.ok(operations.length > 50, 'the document lists the operations');
    const findings: string[] = [];
    const statuses: Record<string, Set<number>> = {};
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op, fx), async (req) => {
          const answer = await send(h.url, req);
          const key = `${op.method.toUpperCase()} ${op.path}`;
          (statuses[key] ??= new Set()).add(answer.status);
          const found = problems(op, req, answer);
          if (found.length) {
            findings.push(
              `${op.method.toUpperCase()} ${op.path}: ${req.method} ${req.path.slice(0, 200)} (${req.label}): ${found.join('; ')}`,
            );
          }
        }),
        { seed, numRuns: runs, endOnFailure: true },
      );
    }
    if (process.env.FUZZ_VERBOSE) {
      for (const [key, set] of Object.entries(statuses))
        console.log(key, [...set].sort().join(' '));
    }
    assert.deepEqual(findings, [], `FUZZ_SEED=${seed} reproduces these findings`);
  });
});
