import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

describe('dashboard webhooks', () => {
  let h: DashboardHarness;
  let owner: Person;
  before(async () => {
    h = await startDashboard();
    owner = await h.person('HookOwner');
  });
  after(() => h.close());

  const newOrg = async (plan: 'free' | 'business') => {
    const id = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Hooks' } }))
      .body.id as string;
    await h.store.organizations.update(id, { plan }, h.clock.now());
    return id;
  };

  test('below Business the webhook pages answer 403 PLAN_REQUIRED', async () => {
    const org = await newOrg('free');
    const res = await h.call('GET', `/orgs/${org}/webhooks`, { token: owner.access });
    assert.equal(res.status, 403);
    assert.equal(res.body.error.code, 'PLAN_REQUIRED');
  });

  test('create in a chosen mode, update, disable and enable, rotate, test, deliveries, resend, delete', async () => {
    const org = await newOrg('business');
    const base = `/orgs/${org}/webhooks`;
    const t = { token: owner.access };
    const created = await h.call('POST', base, {
      ...t,
      body: { url: 'http://127.0.0.1:9/hook', events: ['job.failed'], mode: 'test' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.webhook.mode, 'test');
    assert.match(created.body.secret, /^whsec_/);
    const id = created.body.webhook.id as string;

    const list = await h.call('GET', base, t);
    assert.deepEqual(
      list.body.data.map((w: { id: string; mode: string }) => [w.id, w.mode]),
      [[id, 'test']],
    );

    const changed = await h.call('PATCH', `${base}/${id}`, {
      ...t,
      body: { events: ['job.printed', 'printer.paper_out'], description: 'kitchen' },
    });
    assert.equal(changed.status, 200);
    assert.deepEqual(changed.body.events, ['job.printed', 'printer.paper_out']);
    assert.equal(changed.body.description, 'kitchen');

    const badUrl = await h.call('PATCH', `${base}/${id}`, {
      ...t,
      body: { url: 'ftp://x.example' },
    });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.error.details[0].path, 'url');

    const disabled = await h.call('PATCH', `${base}/${id}`, { ...t, body: { enabled: false } });
    assert.equal(disabled.body.enabled, false);
    assert.ok(disabled.body.disabledReason);
    const enabled = await h.call('PATCH', `${base}/${id}`, { ...t, body: { enabled: true } });
    assert.equal(enabled.body.enabled, true);
    assert.equal(enabled.body.disabledReason, null);

    const rotated = await h.call('POST', `${base}/${id}/rotate-secret`, t);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, created.body.secret);

    const sent = await h.call('POST', `${base}/${id}/test`, t);
    assert.equal(sent.status, 201);
    assert.equal(sent.body.type, 'webhook.test');
    assert.equal(sent.body.state, 'pending');

    const deliveries = await h.call('GET', `${base}/${id}/deliveries`, t);
    assert.equal(deliveries.status, 200);
    assert.deepEqual(
      deliveries.body.data.map((d: { id: string }) => d.id),
      [sent.body.id],
    );
    assert.ok(
      'responseStatus' in deliveries.body.data[0] && 'durationMs' in deliveries.body.data[0],
    );
    const sentBody = JSON.parse(deliveries.body.data[0].body);
    assert.equal(sentBody.type, 'webhook.test', 'the body sent is listed with its delivery');
    assert.equal(sentBody.id, sent.body.eventId);

    const resent = await h.call('POST', `${base}/${id}/deliveries/${sent.body.id}/resend`, t);
    assert.equal(resent.status, 200);
    assert.equal(resent.body.eventId, sent.body.eventId);
    const missing = await h.call('POST', `${base}/${id}/deliveries/whd_nope/resend`, t);
    assert.equal(missing.status, 404);

    const deleted = await h.call('DELETE', `${base}/${id}`, t);
    assert.equal(deleted.status, 200);
    assert.equal((await h.call('GET', `${base}/${id}/deliveries`, t)).status, 404);
  });

  test('someone outside the organization gets 404, without a session 401', async () => {
    const org = await newOrg('business');
    const stranger = await h.person('Stranger');
    const res = await h.call('GET', `/orgs/${org}/webhooks`, { token: stranger.access });
    assert.equal(res.status, 404);
    assert.equal((await h.call('GET', `/orgs/${org}/webhooks`)).status, 401);
  });

  test('alert rules: create, list, refuse bad ones, delete; alerts list', async () => {
    const org = await newOrg('business');
    const t = { token: owner.access };
    const created = await h.call('POST', `/orgs/${org}/alert-rules`, {
      ...t,
      body: {
        kind: 'failure_rate',
        channels: ['webhook', 'email'],
        thresholdPercent: 20,
        windowMinutes: 30,
      },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.minJobs, 1);
    const bad = await h.call('POST', `/orgs/${org}/alert-rules`, {
      ...t,
      body: { kind: 'failure_rate', channels: ['sms'], thresholdPercent: 101, windowMinutes: 30 },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.body.error.details.map((d: { path: string }) => d.path).sort(), [
      'channels[0]',
      'thresholdPercent',
    ]);
    const list = await h.call('GET', `/orgs/${org}/alert-rules`, t);
    assert.deepEqual(list.body.data, [created.body]);
    assert.deepEqual((await h.call('GET', `/orgs/${org}/alerts`, t)).body.data, []);
    assert.equal(
      (await h.call('DELETE', `/orgs/${org}/alert-rules/${created.body.id}`, t)).status,
      200,
    );
    assert.equal(
      (await h.call('DELETE', `/orgs/${org}/alert-rules/${created.body.id}`, t)).status,
      404,
    );
  });
});
