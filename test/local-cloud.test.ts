/**
 * Local mode with the real cloud: `printwire-cloud serve` and `printwire-agent start` as
 * processes, a signing key and a template made through the dashboard API, local jobs printed
 * through the agent's local WebSocket and found in GET /v1/jobs, also after offline work.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { promisify } from 'node:util';
import { LocalTestClient, signRequest } from '@printwire/agent/testing';
import { CloudProcess, freePort, tempDir, waitUntil, type JobView } from './e2e-support.js';
import { FakePrinter } from './fake-printer.js';
import { LocalAgentProcess } from './local-page.js';

const run = promisify(execFile);
const CLOUD_BIN = new URL('../cloud/bin/printwire-cloud.mjs', import.meta.url).pathname;
const ORIGIN = 'https://till.shop.example';
const EMAIL = 'owner-local@example.com';
const PASSWORD = 'a long e2e password';

let env: NodeJS.ProcessEnv;
let cloud: CloudProcess;
let agent: LocalAgentProcess;
let printer: FakePrinter;
let org: { orgId: string; liveKey: string; activationCode: string };
let key: { id: string; privateKey: ReturnType<typeof createPrivateKey> };
let templateId: string;
let port: number;

async function dashboard(token: string, method: string, path: string, body: unknown) {
  const res = await fetch(`${cloud.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function cloudState(): Promise<string> {
  const info = (await (await fetch(`http://127.0.0.1:${port}/v1/info`)).json()) as {
    cloud: string;
  };
  return info.cloud;
}

/** Prints signed through the local WebSocket; resolves with the job once printed. */
async function printLocally(body: unknown): Promise<{ id: string; state: string }> {
  const client = await LocalTestClient.connect(`ws://127.0.0.1:${port}`, {
    origin: ORIGIN,
    host: `localhost:${port}`,
  });
  try {
    const auth = signRequest(key, {
      type: 'job.print',
      origin: ORIGIN,
      body,
      timestamp: Math.floor(Date.now() / 1000),
    });
    const reply = await client.request('job.print', body, { auth });
    assert.equal(reply.type, 'reply', JSON.stringify(reply));
    const id = (reply.result as { id: string }).id;
    const done = await client.next(
      (f) =>
        f.type === 'event' && f.event === 'job' && f.data.id === id && f.data.state === 'printed',
    );
    return (done as { data: { id: string; state: string } }).data;
  } finally {
    client.close();
  }
}

const cloudJob = (id: string) =>
  waitUntil(
    `job ${id} printed in GET /v1/jobs/${id}`,
    async () => {
      const res = await cloud.call(org.liveKey, 'GET', `/v1/jobs/${id}`);
      const job = res.body as JobView & { source?: string };
      return res.status === 200 && job.state === 'printed' ? job : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );

before(async () => {
  printer = await FakePrinter.start();
  env = CloudProcess.env(tempDir('pw-local-cloud-'), await freePort());
  const { stdout } = await run(
    process.execPath,
    [
      CLOUD_BIN,
      'admin',
      'bootstrap',
      '--email',
      EMAIL,
      '--password',
      PASSWORD,
      '--org',
      'Local shop',
      '--plan',
      'business',
      '--json',
    ],
    { env },
  );
  org = JSON.parse(stdout) as typeof org;
  cloud = await CloudProcess.start(env);
  const login = (await (
    await fetch(`${cloud.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    })
  ).json()) as { accessToken: string };
  const created = (await dashboard(login.accessToken, 'POST', `/orgs/${org.orgId}/signing-keys`, {
    name: 'Till server',
  })) as { signingKey: { id: string }; privateKey: string };
  key = { id: created.signingKey.id, privateKey: createPrivateKey(created.privateKey) };
  const template = await dashboard(login.accessToken, 'POST', `/orgs/${org.orgId}/templates`, {
    name: 'Shelf ticket',
    type: 'receipt',
    content: '{"blocks": [{"type": "text", "value": "{{name}} {{price}}"}, {"type": "cut"}]}',
  });
  templateId = template.id as string;
  port = await freePort();
  agent = await LocalAgentProcess.start(
    [
      '--data-dir',
      tempDir('pw-local-cloud-agent-'),
      '--cloud',
      cloud.url,
      '--activation-code',
      org.activationCode,
      '--printer',
      printer.uri(),
    ],
    port,
  );
  await waitUntil(
    'the agent online',
    async () => ((await cloudState()) === 'connected' ? true : undefined),
    {
      timeoutMs: 20_000,
    },
  );
});

after(async () => {
  await agent?.kill();
  await cloud?.stop();
  await printer?.stop();
});

describe('local mode with the real cloud', () => {
  test('a signed local job prints and shows in GET /v1/jobs with source local', async () => {
    const job = await printLocally({
      type: 'text',
      data: 'local with the cloud',
      metadata: { order: '7' },
    });
    const seen = await cloudJob(job.id);
    assert.equal(seen.source, 'local');
    assert.deepEqual(seen.metadata, { order: '7' });
    assert.ok(printer.bytes().toString('latin1').includes('local with the cloud'));
  });

  test('with the cloud stopped a template job prints, and reaches GET /v1/jobs once the cloud is back', async () => {
    await cloud.stop();
    await waitUntil('the agent offline', async () =>
      (await cloudState()) === 'offline' ? true : undefined,
    );
    const job = await printLocally({ templateId, data: { name: 'Beans', price: '1.10' } });
    assert.ok(printer.bytes().toString('latin1').includes('Beans 1.10'));
    cloud = await CloudProcess.start(env);
    const seen = await cloudJob(job.id);
    assert.equal(seen.source, 'local');
    assert.equal(seen.templateId, templateId);
  });
});
