import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseGroupMember, isReadyMemberStatus } from './group-routing.js';

interface Member {
  id: string;
  status: string;
}

const members = (...statuses: string[]): Member[] =>
  statuses.map((status, i) => ({ id: `p${i + 1}`, status }));

const choose = (
  strategy: 'failover' | 'round-robin',
  list: Member[],
  last: string | null = null,
  exclude?: string,
) =>
  chooseGroupMember(strategy, list, {
    id: (m) => m.id,
    ready: (m) => isReadyMemberStatus(m.status),
    last,
    ...(exclude ? { exclude } : {}),
  })?.id ?? null;

describe('choosing a printer group member', () => {
  test('failover takes the first member that is online or not read yet', () => {
    assert.equal(choose('failover', members('online', 'online')), 'p1');
    assert.equal(choose('failover', members('paper_out', 'online')), 'p2');
    assert.equal(choose('failover', members('cover_open', 'offline', 'unknown')), 'p3');
    assert.equal(choose('failover', members('error', 'online')), 'p2');
  });

  test('no ready member gives null, so the job waits', () => {
    assert.equal(choose('failover', members('paper_out', 'offline')), null);
    assert.equal(choose('round-robin', members('paper_out', 'cover_open'), 'p1'), null);
    assert.equal(choose('failover', []), null);
  });

  test('round-robin takes the next ready member after the last one, wrapping around', () => {
    const three = members('online', 'online', 'online');
    assert.equal(choose('round-robin', three, null), 'p1');
    assert.equal(choose('round-robin', three, 'p1'), 'p2');
    assert.equal(choose('round-robin', three, 'p3'), 'p1');
    assert.equal(choose('round-robin', members('online', 'paper_out', 'online'), 'p1'), 'p3');
    assert.equal(choose('round-robin', three, 'gone'), 'p1', 'a last member no longer in it');
  });

  test('the member a job moves from is left out', () => {
    assert.equal(choose('failover', members('online', 'online'), null, 'p1'), 'p2');
    assert.equal(choose('failover', members('online'), null, 'p1'), null);
  });
});
