/**
 * Several cloud instances: two apps sharing one PostgreSQL schema and one Redis bus. A job
 * created on one reaches an agent connected to the other; a device connecting to a second
 * instance closes its older socket on the first; a revocation anywhere closes the socket; a
 * configuration change on one reaches an agent connected to the other.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AGENT_CLOSE_CODES } from '@printwire/shared/protocol/index';
import { hashSecret } from '../services/api-keys.js';
import {
  startTwoCloudInstances,
  TestAgent,
  twoCloudInstancesSkip,
  type GatewayHarness,
} from '../testing/gateway.js';

const skip = await twoCloudInstancesSkip();

describe('two cloud instances sharing PostgreSQL and Redis', { skip }, () => {
  let one: GatewayHarness;
  let two: GatewayHarness;
  let close: (() => Promise<void>) | undefined;

  before(async () => {
    ({ one, two, close } = await startTwoCloudInstances());
  });
  after(() => close?.());

  test('a job created on one instance is sent to the agent connected to the other, and its result is seen on both', async () => {
    const org = await one.org();
    const { deviceToken } = await one.activate(org);
    const { agent } = await TestAgent.online(two.wsUrl, deviceToken);
    const created = await one.post('/v1/jobs', { type: 'text', data: 'across' }, org.liveKey);
    assert.equal(created.status, 201);
    const id = (created.body as { id: string }).id;
    const { job } = await agent.next('job.dispatch');
    assert.equal(job.id, id);
    agent.send({
      type: 'job.result',
      id: 'r-across',
      jobId: id,
      attempt: 1,
      outcome: 'printed',
      at: new Date().toISOString(),
    });
    await agent.next('ack');
    assert.equal((await one.store.jobs.get(org.orgId, 'live', id))?.state, 'printed');
    await agent.close();
  });

  test('a device that connects to the other instance closes its older socket (4409), and a revocation on either closes the new one (4401)', async () => {
    const org = await one.org();
    const { deviceId, deviceToken } = await one.activate(org);
    const first = await TestAgent.online(one.wsUrl, deviceToken);
    const second = await TestAgent.online(two.wsUrl, deviceToken);
    assert.equal(await first.agent.closed, AGENT_CLOSE_CODES.REPLACED);
    assert.equal(second.agent.closeCode, undefined);
    assert.equal((await one.store.devices.get(org.orgId, deviceId))?.status, 'online');
    await one.cloud.devices.revoke(org.orgId, deviceId);
    assert.equal(await second.agent.closed, AGENT_CLOSE_CODES.UNAUTHORIZED);
  });

  test('a signing key created and revoked on one instance reaches the agent connected to the other within 5 s', async () => {
    const org = await one.org();
    const { deviceToken } = await one.activate(org);
    const { agent, welcome } = await TestAgent.online(two.wsUrl, deviceToken);
    assert.deepEqual(welcome.config.local?.signingKeys, []);
    // What POST and DELETE /orgs/{orgId}/signing-keys do, on instance one.
    const key = await one.store.signingKeys.create(
      org.orgId,
      { name: 'server', publicKey: '-----BEGIN PUBLIC KEY-----\nMCo=\n-----END PUBLIC KEY-----\n' },
      Date.now(),
      100,
    );
    await one.cloud.agentConfig.changed(org.orgId);
    const pushed = await agent.next('config', () => true, 5000);
    assert.deepEqual(pushed.config.local?.signingKeys, [{ id: key.id, publicKey: key.publicKey }]);
    // Instance two read the organization's part for the first welcome; a device it welcomes after
    // the announcement gets the change, not what two had read.
    const code = `LATE-${Date.now()}`;
    await one.store.organizations.createActivationCode(
      org.orgId,
      { codeHash: hashSecret(code), name: null, expiresAt: Date.now() + 3_600_000 },
      Date.now(),
    );
    const other = await one.activate({ ...org, activationCode: code });
    const late = await TestAgent.online(two.wsUrl, other.deviceToken);
    assert.deepEqual(late.welcome.config.local?.signingKeys, [
      { id: key.id, publicKey: key.publicKey },
    ]);
    await late.agent.close();
    await one.store.signingKeys.revoke(org.orgId, key.id, Date.now());
    await one.cloud.agentConfig.changed(org.orgId);
    const revoked = await agent.next('config', () => true, 5000);
    assert.deepEqual(revoked.config.local?.signingKeys, []);
    await agent.close();
  });
});
