import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DASHBOARD_OPERATIONS } from './index.js';
import { startDashboard, type DashboardHarness } from '../../testing/dashboard.js';

// Every dashboard operation, enumerated from the list /openapi.json is built from, so that a
// route added later without its guards fails here.
describe('the guards of every dashboard endpoint', () => {
  let h: DashboardHarness;
  before(async () => {
    h = await startDashboard();
  });
  after(() => h.close());

  const withSession = DASHBOARD_OPERATIONS.filter((op) => op.auth !== 'none');
  const orgScoped = withSession.filter((op) => op.path.includes('{orgId}'));

  test('every endpoint that needs a session answers 401 without one, or with an unknown token', async () => {
    assert.ok(withSession.length > 30);
    for (const op of withSession) {
      const path = op.path.replace(/\{(\w+)\}/g, 'x_$1');
      for (const token of [undefined, 'not-a-token-but-long-enough']) {
        const body = op.method === 'get' ? undefined : {};
        const res = await h.call(op.method.toUpperCase(), path, { token, body });
        assert.equal(res.status, 401, `${op.method} ${op.path}`);
        assert.equal(res.body.error.code, 'UNAUTHORIZED');
      }
    }
  });

  test('every organization endpoint answers 404 to a logged-in stranger and changes nothing', async () => {
    const owner = await h.person('GuardOwner');
    const org = await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Guarded' } });
    const stranger = await h.person('GuardStranger');
    for (const op of orgScoped) {
      const path = op.path
        .replace('{orgId}', org.body.id)
        .replace('{userId}', owner.userId)
        .replace(/\{(\w+)\}/g, 'x_$1');
      const res = await h.call(op.method.toUpperCase(), path, {
        token: stranger.access,
        body:
          op.method === 'get' ? undefined : { confirm: 'Guarded', name: 'Taken', role: 'viewer' },
      });
      assert.equal(res.status, 404, `${op.method} ${op.path}`);
    }
    const still = await h.call('GET', `/orgs/${org.body.id}`, { token: owner.access });
    assert.equal(still.body.name, 'Guarded');
    const members = await h.call('GET', `/orgs/${org.body.id}/members`, { token: owner.access });
    assert.equal(members.body.data[0].role, 'owner');
  });
});
