import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { API_VERSION, OPERATIONS } from '../app.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { formattedApiMarkdown } from './api-docs.js';
import { buildOpenApi } from './openapi.js';
import {
  deviceSchema,
  jobSchema,
  listSchema,
  meSchema,
  printerSchema,
  templateSchema,
} from '../resources/schemas.js';

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

function mountedRoutes(stack: Layer[]): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      for (const method of Object.keys(layer.route.methods))
        out.push(`${method} ${layer.route.path}`);
    } else if (layer.handle?.stack) {
      out.push(...mountedRoutes(layer.handle.stack));
    }
  }
  return out;
}

describe('the OpenAPI document', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('lists exactly the endpoints the app serves', async () => {
    const res = await h.call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi, '3.1.0');
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => `${m} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
      )
      .sort();
    const router = (h.cloud.app as unknown as { router: { stack: Layer[] } }).router;
    assert.deepEqual(mountedRoutes(router.stack).sort(), documented);
  });

  test('every operation declares the errors any request can get before its handler (400, 413, 415)', async () => {
    const res = await h.call('GET', '/openapi.json');
    const logout = await h.call('POST', '/auth/logout', {
      body: '{"a":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(logout.status, 400, 'an operation that takes no body still reads a JSON one');
    for (const [path, methods] of Object.entries(
      res.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>,
    )) {
      for (const [method, op] of Object.entries(methods)) {
        for (const status of ['400', '413', '415']) {
          assert.ok(op.responses[status], `${method} ${path} declares ${status}`);
        }
      }
    }
  });

  test('every documented endpoint is reached by its path (none is left behind a path prefix)', async () => {
    for (const op of OPERATIONS) {
      const path = op.path.replace(/\{\w+\}/g, 'x_unknown');
      const res = await h.call(
        op.method.toUpperCase(),
        path,
        op.method === 'get' ? {} : { body: {} },
      );
      const message = (res.body as { error?: { message?: string } } | null)?.error?.message;
      assert.ok(
        !message?.startsWith('no endpoint'),
        `${op.method} ${op.path} answered: ${message ?? res.status}`,
      );
    }
  });

  test('names every scope, and every referenced schema exists', async () => {
    const doc = (await h.call('GET', '/openapi.json')).body;
    const text = JSON.stringify(doc);
    for (const ref of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      assert.ok(doc.components.schemas[ref[1]!], `missing component ${ref[1]}`);
    }
    assert.equal(doc.paths['/v1/jobs'].post['x-scope'], 'jobs:write');
    assert.deepEqual(doc.paths['/health/live'].get.security, []);
    assert.ok(doc.components.schemas.ReceiptDocument);
  });

  test('docs/api.md is what `npm run docs:api -w @printwire/cloud` generates', async () => {
    const file = new URL('../../../docs/api.md', import.meta.url);
    const expected = await formattedApiMarkdown(
      buildOpenApi(OPERATIONS, { version: API_VERSION }),
      file.pathname,
    );
    const committed = readFileSync(file, 'utf8');
    assert.equal(
      committed,
      expected,
      'docs/api.md is out of date: run npm run docs:api -w @printwire/cloud',
    );
  });

  test('responses match their schemas exactly, with no field the schemas do not name', async () => {
    const org = await h.org();
    const job = await h.call('POST', '/v1/jobs', {
      key: org.testKey,
      body: { type: 'text', data: 'x', metadata: { a: 'b' } },
    });
    const strict = <T extends z.ZodObject>(s: T) => s.strict();
    strict(jobSchema).parse(job.body);
    strict(jobSchema).parse(
      (await h.call('GET', `/v1/jobs/${job.body.id}`, { key: org.testKey })).body,
    );
    listSchema(strict(jobSchema)).parse(
      (await h.call('GET', '/v1/jobs', { key: org.testKey })).body,
    );
    listSchema(strict(printerSchema)).parse(
      (await h.call('GET', '/v1/printers', { key: org.testKey })).body,
    );
    listSchema(strict(deviceSchema)).parse(
      (await h.call('GET', '/v1/devices', { key: org.testKey })).body,
    );
    await h.store.templates.create(
      org.orgId,
      { name: 't', type: 'html', content: '<p>{{x}}</p>' },
      h.clock.now(),
    );
    listSchema(strict(templateSchema)).parse(
      (await h.call('GET', '/v1/templates', { key: org.testKey })).body,
    );
    strict(meSchema).parse((await h.call('GET', '/v1/me', { key: org.testKey })).body);
  });
});
