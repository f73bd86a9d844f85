/// <reference lib="dom" />
/// <reference lib="dom.asynciterable" />
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { AgentConfig, AgentMessageOf } from '@printwire/shared/protocol/index';
import { freePort, waitUntil } from './e2e-support.js';
import { FakeCloud } from './fake-cloud.js';
import { FakePrinter } from './fake-printer.js';
import { ENGINES, type Engine, type TestBrowser } from './browsers.js';
import { LocalAgentProcess, PageServer, SHOP_SETUP, type ShopWindow } from './local-page.js';

const TICKET = {
  id: 'tpl_ticket',
  name: 'Shelf ticket',
  type: 'receipt' as const,
  content: '{"blocks": [{"type": "text", "value": "{{name}} {{price}}"}, {"type": "cut"}]}',
  paper: null,
  updatedAt: '2026-11-20T10:00:00.000Z',
};
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const KEY_ID = 'sk_e2e';

/** The scenarios, run once per engine (each with its own agent, pages and one browser). */
function localModeIn(engine: Engine): void {
  let cloud: FakeCloud;
  let printer: FakePrinter;
  let page: PageServer;
  let foreign: PageServer;
  let agent: LocalAgentProcess;
  let browser: TestBrowser;
  let securePage: PageServer;
  let port: number;
  let dataDir: string;

  function config(local: Partial<NonNullable<AgentConfig['local']>> = {}): AgentConfig {
    return {
      printers: [],
      templates: [TICKET],
      local: {
        requireSignature: false,
        unsignedModeEnabled: false,
        devModeEnabled: false,
        allowedOrigins: [page.url],
        signingKeys: [
          { id: KEY_ID, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
        ],
        ...local,
      },
    };
  }

  /** Pushes a config and waits until the agent acts on it (a page's unsigned request says so). */
  async function pushConfig(next: AgentConfig, origin: string, expected: string): Promise<void> {
    cloud.config = next;
    cloud.send({ type: 'config', config: next });
    await waitUntil(`the agent answering ${expected}`, async () => {
      const ws = new WebSocket(`ws://localhost:${port}/v1/local`, { origin });
      const first = await new Promise<string>((resolve) => {
        ws.on('message', (data) => {
          const frame = JSON.parse(data.toString()) as { type: string; code?: string };
          if (frame.type === 'welcome') {
            ws.send(JSON.stringify({ v: 1, id: 'probe', type: 'printers.list' }));
            return;
          }
          resolve(frame.type === 'error' ? frame.code! : frame.type);
          ws.close();
        });
        ws.on('error', () => resolve('error'));
      });
      return first === expected ? true : undefined;
    });
  }

  async function info(): Promise<{ cloud: string }> {
    return (await (await fetch(`http://127.0.0.1:${port}/v1/info`)).json()) as { cloud: string };
  }

  /**
   * Runs `fn` in a page of `origin`, where SHOP_SETUP has put the SDK (its /printwire.js) and a
   * signed connect on `globalThis.shop`.
   */
  async function inPage<A, R>(origin: string, fn: (arg: A) => Promise<R>, arg: A): Promise<R> {
    const tab = await browser.newTab();
    try {
      await tab.goto(origin);
      await tab.evaluateSource(SHOP_SETUP);
      return await tab.evaluate(fn, arg);
    } finally {
      await tab.close();
    }
  }

  const localReport = (jobId: string, state: string, timeoutMs = 15_000) =>
    cloud.waitFor(
      'job.local',
      (m: AgentMessageOf<'job.local'>) => m.job.id === jobId && m.job.state === state,
      { past: true, timeoutMs },
    );

  describe(`local mode in ${engine.name}`, { skip: engine.missing() ?? false }, () => {
    before(async () => {
      cloud = await FakeCloud.start();
      cloud.activationCodes.set('ACT-E2E', { deviceId: 'dev_e2e', deviceToken: 'dtok_e2e' });
      cloud.validTokens.add('dtok_e2e');
      printer = await FakePrinter.start();
      page = await PageServer.start();
      page.signingKey = { keyId: KEY_ID, privateKey };
      foreign = await PageServer.start();
      cloud.config = config();
      port = await freePort();
      dataDir = mkdtempSync(join(tmpdir(), 'pw-local-e2e-'));
      agent = await LocalAgentProcess.start(
        [
          '--data-dir',
          dataDir,
          '--cloud',
          cloud.url,
          '--activation-code',
          'ACT-E2E',
          '--printer',
          printer.uri(),
        ],
        port,
      );
      await waitUntil(
        'the agent online',
        async () => ((await info()).cloud === 'connected' ? true : undefined),
        {
          timeoutMs: 20_000,
        },
      );
      const tls = {
        cert: readFileSync(join(dataDir, 'tls', 'localhost.crt'), 'utf8'),
        key: readFileSync(join(dataDir, 'tls', 'localhost.key'), 'utf8'),
      };
      // The https page uses the agent's own certificate, which the browser is told to trust (as
      // the installers trust the agent's CA): see browsers.ts for how each engine does it.
      securePage = await PageServer.start(tls);
      securePage.signingKey = page.signingKey;
      browser = await engine.launch({ trustCertificate: tls.cert, loopbackHosts: ['rebind.test'] });
    });

    after(async () => {
      await browser?.close();
      await agent?.kill();
      await Promise.all([
        cloud?.stop(),
        printer?.stop(),
        page?.stop(),
        foreign?.stop(),
        securePage?.stop(),
      ]);
    });

    test('a page of another origin prints a receipt and a template job, signed, through the agent', async () => {
      printer.clear();
      const result = await inPage(
        page.url,
        async ({ port }) => {
          const { connectSigned } = (globalThis as unknown as ShopWindow).shop;
          const agent = await connectSigned(port);
          const printers = await agent.printers();
          const states: string[] = [];
          const receipt = await agent.print(
            {
              type: 'receipt',
              data: { blocks: [{ type: 'text', value: 'Receipt 1042' }, { type: 'cut' }] },
            },
            { onEvent: (j) => states.push(j.state) },
          );
          const ticket = await agent.print({
            templateId: 'tpl_ticket',
            data: { name: 'Rice', price: '2.50' },
          });
          agent.close();
          return { printers: printers.length, receipt, ticket, states, cloud: agent.info.cloud };
        },
        { port },
      );
      assert.equal(result.printers, 1);
      assert.equal(result.cloud, 'connected');
      assert.equal(result.receipt.state, 'printed');
      assert.equal(result.receipt.source, 'local');
      assert.equal(result.states.at(-1), 'printed');
      assert.equal(result.ticket.state, 'printed');
      assert.equal(result.ticket.templateId, 'tpl_ticket');
      const bytes = printer.bytes().toString('latin1');
      assert.ok(bytes.includes('Receipt 1042'));
      assert.ok(bytes.includes('Rice 2.50'));
      await localReport(result.receipt.id, 'printed');
      await localReport(result.ticket.id, 'printed');
    });

    test('a page prints to a printer group through the SDK, and the agent picks its member', async () => {
      const hello = await cloud.waitFor('hello', () => true, { past: true });
      const agentPrinterId = hello.printers[0]!.agentPrinterId;
      const group = { id: 'grp_counter', name: 'Counter', strategy: 'failover' as const };
      const next = {
        ...config(),
        printerGroups: [{ ...group, agentPrinterIds: [agentPrinterId] }],
      };
      cloud.config = next;
      cloud.send({ type: 'config', config: next });
      await waitUntil('the agent holding the groups', async () =>
        existsSync(join(dataDir, 'printer-groups.json')) ? true : undefined,
      );
      printer.clear();
      const result = await inPage(
        page.url,
        async ({ port }) => {
          const { connectSigned } = (globalThis as unknown as ShopWindow).shop;
          const agent = await connectSigned(port);
          const job = await agent.print({
            type: 'text',
            data: 'GROUP ORDER 12',
            printerGroupId: 'grp_counter',
          });
          let refused = '';
          try {
            await agent.print({ type: 'text', data: 'x', printerGroupId: 'grp_unknown' });
          } catch (error) {
            refused = (error as { code: string }).code;
          }
          agent.close();
          return { job, refused };
        },
        { port },
      );
      assert.equal(result.job.state, 'printed');
      assert.equal(result.job.printerGroupId, 'grp_counter');
      assert.equal(result.job.agentPrinterId, agentPrinterId);
      assert.equal(result.refused, 'INVALID_JOB');
      assert.equal(printer.bytes().toString('latin1').split('GROUP ORDER 12').length - 1, 1);
    });

    test('with requireSignature on, the same page unsigned is refused with SIGNATURE_REQUIRED', async () => {
      await pushConfig(config({ requireSignature: true }), page.url, 'SIGNATURE_REQUIRED');
      const code = await inPage(
        page.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          const agent = await sdk.connect({ ports: [port] });
          try {
            await agent.print({ type: 'text', data: 'unsigned' });
            return 'printed';
          } catch (error) {
            return (error as InstanceType<typeof sdk.PrintwireError>).code;
          } finally {
            agent.close();
          }
        },
        { port },
      );
      assert.equal(code, 'SIGNATURE_REQUIRED');
      await pushConfig(config(), page.url, 'reply');
    });

    test('a signed request sent again is refused as REPLAYED', async () => {
      const answers = await inPage(
        page.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          const hex = (b: ArrayBuffer) =>
            Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('');
          const timestamp = Math.floor(Date.now() / 1000);
          const nonce = 'replay-nonce-0123456789';
          const payload = sdk.signaturePayload({
            method: 'printers.list',
            path: '/v1/local',
            origin: location.origin,
            bodySha256: hex(
              await crypto.subtle.digest('SHA-256', new TextEncoder().encode('null')),
            ),
            timestamp,
            nonce,
          });
          const signature = await fetch('/sign', { method: 'POST', body: payload }).then((r) =>
            r.text(),
          );
          const ws = new WebSocket(`ws://localhost:${port}/v1/local`);
          const frames: Array<{ type: string; code?: string; replyTo?: string }> = [];
          await new Promise<void>((resolve) => {
            ws.onmessage = (m) => {
              const frame = JSON.parse(String(m.data)) as {
                type: string;
                code?: string;
                replyTo?: string;
              };
              if (frame.type === 'welcome') {
                const message = JSON.stringify({
                  v: 1,
                  id: 'a',
                  type: 'printers.list',
                  auth: { signature, timestamp, nonce },
                });
                ws.send(message);
                ws.send(message.replace('"id":"a"', '"id":"b"'));
                return;
              }
              frames.push(frame);
              if (frames.length === 2) resolve();
            };
          });
          ws.close();
          // Answers may come in either order: each names its request.
          return frames.map((f) => `${f.replyTo}:${f.code ?? f.type}`).sort();
        },
        { port },
      );
      assert.deepEqual(answers, ['a:reply', 'b:REPLAYED']);
    });

    test('a page of a foreign origin can neither list printers nor print', async () => {
      const signedPossible = await inPage(
        foreign.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          const agent = await sdk.connect({ ports: [port] });
          const codes: string[] = [];
          for (const call of [
            () => agent.printers(),
            () => agent.print({ type: 'text', data: 'x' }),
          ]) {
            try {
              await call();
              codes.push('ok');
            } catch (error) {
              codes.push((error as InstanceType<typeof sdk.PrintwireError>).code);
            }
          }
          agent.close();
          return codes;
        },
        { port },
      );
      assert.deepEqual(signedPossible, ['ORIGIN_NOT_ALLOWED', 'ORIGIN_NOT_ALLOWED']);
      // With no signing key there is no way at all: the session and CORS are refused up front.
      await pushConfig(config({ signingKeys: [] }), foreign.url, 'ORIGIN_NOT_ALLOWED');
      const refused = await inPage(
        foreign.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          let code = 'connected';
          try {
            await sdk.connect({ ports: [port] });
          } catch (error) {
            code = (error as InstanceType<typeof sdk.PrintwireError>).code;
          }
          const cors = await fetch(`http://localhost:${port}/v1/info`).then(
            () => 'read',
            () => 'blocked',
          );
          return { code, cors };
        },
        { port },
      );
      assert.deepEqual(refused, { code: 'ORIGIN_NOT_ALLOWED', cors: 'blocked' });
      await pushConfig(config(), page.url, 'reply');
    });

    test('an https page prints over wss with the certificate of the agent’s own CA', async () => {
      const result = await inPage(
        securePage.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          const agent = await sdk.connect({
            ports: [port],
            scheme: 'wss',
            sign: (payload) =>
              fetch('/sign', { method: 'POST', body: payload }).then((r) => r.text()),
          });
          const job = await agent.print({ type: 'text', data: 'over wss' });
          agent.close();
          return { protocol: location.protocol, state: job.state };
        },
        { port },
      );
      assert.deepEqual(result, { protocol: 'https:', state: 'printed' });
    });

    test('an https page also reaches the agent over plain ws://localhost (loopback is not mixed content)', async () => {
      const result = await inPage(
        securePage.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          try {
            const agent = await sdk.connect({ ports: [port], scheme: 'ws', timeoutMs: 3000 });
            agent.close();
            return 'connected';
          } catch (error) {
            return (error as InstanceType<typeof sdk.PrintwireError>).code;
          }
        },
        { port },
      );
      assert.equal(result, 'connected');
    });

    test('a wrong Host header (DNS rebinding) is refused', async () => {
      const tab = await browser.newTab();
      try {
        assert.equal(await tab.goto(`http://rebind.test:${port}/v1/info`), 421);
      } finally {
        await tab.close();
      }
    });

    test('with the cloud unreachable a template job still prints and reaches the cloud once it is back', async () => {
      cloud.answerHello = false;
      cloud.dropConnections();
      await waitUntil('the agent offline', async () =>
        (await info()).cloud === 'offline' ? true : undefined,
      );
      printer.clear();
      const job = await inPage(
        page.url,
        async ({ port }) => {
          const { connectSigned } = (globalThis as unknown as ShopWindow).shop;
          const agent = await connectSigned(port);
          const printed = await agent.print({
            templateId: 'tpl_ticket',
            data: { name: 'Beans', price: '1.10' },
          });
          agent.close();
          return printed;
        },
        { port },
      );
      assert.equal(job.state, 'printed');
      assert.ok(printer.bytes().toString('latin1').includes('Beans 1.10'));
      assert.equal(
        cloud.received.some((m) => m.type === 'job.local' && m.job.id === job.id),
        false,
      );
      cloud.answerHello = true;
      // The agent may be waiting for the welcome of a hello sent while the cloud was mute.
      if (cloud.socket) {
        cloud.send({
          type: 'welcome',
          protocolVersion: 1,
          deviceId: 'dev_e2e',
          heartbeatIntervalMs: cloud.heartbeatIntervalMs,
          config: cloud.config,
        });
      }
      const report = await localReport(job.id, 'printed', 60_000);
      assert.equal(report.job.templateId, 'tpl_ticket');
    });

    test('the hybrid client prints through the backend when the agent is stopped', async () => {
      await agent.kill();
      const result = await inPage(
        page.url,
        async ({ port }) => {
          const { sdk } = (globalThis as unknown as ShopWindow).shop;
          const client = sdk.createClient({
            local: { ports: [port], timeoutMs: 1000 },
            cloud: {
              print: (job) =>
                fetch('/cloud-print', { method: 'POST', body: JSON.stringify(job) }).then((r) =>
                  r.json(),
                ),
            },
          });
          return client.print({ type: 'text', data: 'via the backend' });
        },
        { port },
      );
      assert.equal(result.via, 'cloud');
      assert.deepEqual(page.cloudPrints, [{ type: 'text', data: 'via the backend' }]);
    });
  });
}

for (const engine of ENGINES) localModeIn(engine);
