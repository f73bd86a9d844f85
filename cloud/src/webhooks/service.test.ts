import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OutboxEvent } from '../storage/webhook-outbox.js';
import type { WebhookEndpoint } from '../storage/webhooks.js';
import { deliveriesFor } from './service.js';

const T0 = Date.parse('2026-03-10T10:00:00.000Z');

function endpoint(id: string, mode: 'live' | 'test', events: string[], org = 'org_1') {
  return {
    id,
    organizationId: org,
    mode,
    url: 'https://hooks.example.com/in',
    events,
    description: null,
    secret: 'whsec_x',
    enabled: true,
    disabledReason: null,
    failingSince: null,
    createdAt: T0,
    updatedAt: T0,
  } satisfies WebhookEndpoint;
}

const device = {
  id: 'dev_1',
  organizationId: 'org_1',
  name: 'Till',
  groupId: null,
  os: 'linux',
  arch: 'arm64',
  agentVersion: '1.0.0',
  status: 'online',
  activated: true,
  sandbox: false,
  lastSeenAt: T0,
  createdAt: T0,
};

function event(id: string, type: string, mode: 'live' | 'test' | null, org = 'org_1'): OutboxEvent {
  return { id, organizationId: org, mode, type, data: { device }, createdAt: T0 };
}

describe('deliveriesFor', () => {
  const endpoints = [
    endpoint('whk_live', 'live', ['device.online', 'alert.opened']),
    endpoint('whk_test', 'test', ['device.online', 'alert.opened']),
    endpoint('whk_other', 'live', ['device.online'], 'org_2'),
  ];

  test('an event goes to the subscribed endpoints of its organization and mode; one without a mode to both', () => {
    const rows = deliveriesFor(
      [
        event('evt_1', 'device.online', 'live'),
        event('evt_2', 'device.offline', 'live'),
        event('evt_3', 'alert.opened', null),
      ],
      endpoints,
      T0 + 5,
    );
    assert.deepEqual(
      rows.map((r) => [r.eventId, r.endpointId]),
      [
        ['evt_1', 'whk_live'],
        ['evt_3', 'whk_live'],
        ['evt_3', 'whk_test'],
      ],
    );
    const body = JSON.parse(rows[0]!.body) as { id: string; createdAt: string; data: unknown };
    assert.equal(body.id, 'evt_1', 'the outbox event id is the envelope id');
    assert.equal(body.createdAt, new Date(T0).toISOString(), 'the time of the change');
    assert.deepEqual(body.data, {
      device: {
        id: 'dev_1',
        name: 'Till',
        groupId: null,
        os: 'linux',
        arch: 'arm64',
        agentVersion: '1.0.0',
        status: 'online',
        activated: true,
        lastSeenAt: new Date(T0).toISOString(),
        createdAt: new Date(T0).toISOString(),
      },
    });
    assert.equal(rows[0]!.nextAttemptAt, T0 + 5, 'due at the intake');
  });

  test('an event whose data cannot be presented is reported and skipped, not thrown', () => {
    const broken: OutboxEvent = {
      ...event('evt_bad', 'device.online', 'live'),
      data: { device: { ...device, createdAt: Number.NaN } },
    };
    const reported: string[] = [];
    const rows = deliveriesFor(
      [broken, event('evt_ok', 'device.online', 'live')],
      endpoints,
      T0,
      (e) => reported.push(e.id),
    );
    assert.deepEqual(reported, ['evt_bad']);
    assert.deepEqual(
      rows.map((r) => r.eventId),
      ['evt_ok'],
    );
  });
});
