/**
 * The reconnect storm, small (the bench runs 10,000: `npm run bench -- storm`): 500 agents
 * speaking the real agent protocol through HAProxy to two cloud processes on PostgreSQL and
 * Redis, jobs created through the public API all along; every agent dropped at once by a restart
 * of HAProxy, then by a cloud process killed. Every agent comes back, every job prints once.
 * Skipped with a message when PostgreSQL, Redis or HAProxy is missing.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Storm, stormSkipReason } from './storm-support.js';

const AGENTS = 500;
const skip = await stormSkipReason();

describe(`a reconnect storm of ${AGENTS} agents`, { skip, timeout: 240_000 }, () => {
  let storm: Storm;

  before(async () => {
    storm = await Storm.start({ agents: AGENTS, jobsPerSecond: 10 });
    storm.startJobs();
  });

  after(() => storm?.stop());

  test('every agent is back online after HAProxy restarts, and after a cloud process is killed', async () => {
    const restart = await storm.restartBalancers(60_000);
    assert.equal(storm.online, AGENTS);
    assert.equal(await storm.onlineInDatabase(), AGENTS, 'the cloud shows every device online');
    const killed = await storm.killCloud(1, 60_000);
    assert.equal(storm.online, AGENTS);
    assert.ok(restart.backMs < 60_000 && killed.backMs < 60_000);
  });

  test('every job created meanwhile prints, once', async () => {
    await storm.stopJobs();
    const { created, lost, doubled, lostJobs } = await storm.settle(30_000);
    assert.ok(created > 0, 'jobs were created during the storm');
    assert.equal(lost, 0, `jobs lost:\n${lostJobs.join('\n')}`);
    assert.equal(doubled, 0, 'jobs printed twice');
  });
});
