/**
 * Bounded handshake work: with every turn taken and the queue full, a connecting agent is
 * answered 503 with Retry-After at once; an agent queued gets its turn when a handshake ends.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { WebSocket } from 'ws';
import { PROTOCOL_VERSION } from '@printwire/shared/protocol/index';
import { openTestStore } from '../testing/stores.js';
import { startGatewayHarness, TestAgent, type GatewayHarness } from '../testing/gateway.js';

let h: GatewayHarness;
let cleanup: () => Promise<void>;

before(async () => {
  const opened = await openTestStore('sqlite');
  cleanup = opened.cleanup;
  h = await startGatewayHarness({
    store: opened.store,
    gateway: { maxHandshakes: 1, handshakeQueue: 1, busyRetryAfterMs: 7000 },
  });
});

after(async () => {
  await h.close();
  await cleanup();
});

const hello = (agent: TestAgent) =>
  agent.send({
    type: 'hello',
    id: 'hello-1',
    protocolVersion: PROTOCOL_VERSION,
    agentVersion: '1.1.0',
    os: 'linux',
    arch: 'x64',
    hostname: 'till',
    printers: [],
  });

test('one handshake at a time and one waiting: the third agent is told 503, to come back in 7 s; the waiting one is welcomed after the first', async () => {
  const tokens: Array<{ deviceId: string; deviceToken: string }> = [];
  for (let i = 0; i < 3; i++) tokens.push(await h.activate(await h.org()));
  const first = await TestAgent.connect(h.wsUrl, tokens[0]!.deviceToken); // holds the turn
  const secondConnected = TestAgent.connect(h.wsUrl, tokens[1]!.deviceToken); // queued
  await new Promise((resolve) => setTimeout(resolve, 50)); // its upgrade reaches the gate
  const refused = await new Promise<{ status: number; retryAfter: string; body: string }>(
    (resolve, reject) => {
      const socket = new WebSocket(h.wsUrl, {
        headers: { authorization: `Bearer ${tokens[2]!.deviceToken}` },
      });
      socket.once('open', () => reject(new Error('the third agent was let in')));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: String(res.headers['retry-after']),
            body,
          }),
        );
      });
    },
  );
  assert.equal(refused.status, 503);
  assert.equal(refused.retryAfter, '7');
  assert.equal((JSON.parse(refused.body) as { error: { code: string } }).error.code, 'UNAVAILABLE');

  hello(first);
  await first.next('welcome');
  const second = await secondConnected;
  hello(second);
  const welcome = await second.next('welcome');
  assert.equal(welcome.deviceId, tokens[1]!.deviceId);
  first.socket.close();
  second.socket.close();
});
