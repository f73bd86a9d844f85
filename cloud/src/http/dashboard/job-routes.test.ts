import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ROLES } from '../../accounts/permissions.js';
import { storeKinds } from '../../testing/stores.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

const receipt = (value: string, metadata: Record<string, string> = {}) => ({
  type: 'receipt',
  data: { blocks: [{ type: 'text', value }] },
  metadata,
});

for (const { kind, skip } of await storeKinds()) {
  describe(`dashboard jobs (${kind})`, { skip }, () => {
    let h: DashboardHarness;
    let owner: Person;
    let orgId: string;
    const jobs = (rest = '') => `/orgs/${orgId}/jobs${rest}`;
    before(async () => {
      h = await startDashboard({ kind });
      owner = await h.person('JobOwner');
      orgId = (await h.call('POST', '/orgs', { token: owner.access, body: { name: 'Jobs' } })).body
        .id;
    });
    after(() => h.close());

    test('a test job created from the dashboard prints on the sandbox and is read with its events, content and preview', async () => {
      const created = await h.call('POST', jobs('?mode=test'), {
        token: owner.access,
        body: receipt('Bonjour', { order: '1042' }),
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.mode, 'test');
      const id = created.body.id as string;
      const job = await h.call('GET', jobs(`/${id}?mode=test`), { token: owner.access });
      assert.equal(job.body.state, 'printed');
      assert.deepEqual(
        job.body.events.map((e: { state: string }) => e.state),
        ['queued', 'sending', 'printed'],
      );
      const content = await h.call('GET', jobs(`/${id}/content?mode=test`), {
        token: owner.access,
      });
      assert.equal(content.status, 200);
      assert.equal(content.headers.get('printwire-job-type'), 'receipt');
      assert.equal(content.body.blocks[0].value, 'Bonjour');
      const preview = await fetch(h.url + jobs(`/${id}/preview?mode=test`), {
        headers: { authorization: `Bearer ${owner.access}` },
      });
      assert.equal(preview.status, 200);
      assert.equal(preview.headers.get('content-type'), 'image/png');
      // The live world does not see it.
      const live = await h.call('GET', jobs(`/${id}`), { token: owner.access });
      assert.equal(live.status, 404);
      assert.equal(live.body.error.code, 'JOB_NOT_FOUND');
    });

    test('the list takes the /v1 filters and cursors, and names a bad one', async () => {
      for (let i = 0; i < 3; i++) {
        await h.call('POST', jobs('?mode=test'), {
          token: owner.access,
          body: receipt(`n${i}`, { batch: 'b1' }),
        });
      }
      const first = await h.call('GET', jobs('?mode=test&limit=2&metadata.batch=b1'), {
        token: owner.access,
      });
      assert.equal(first.status, 200);
      assert.equal(first.body.data.length, 2);
      assert.ok(first.body.nextCursor);
      const second = await h.call(
        'GET',
        jobs(`?mode=test&limit=2&metadata.batch=b1&cursor=${first.body.nextCursor}`),
        { token: owner.access },
      );
      assert.equal(second.body.data.length, 1);
      assert.equal(second.body.nextCursor, null);
      const failed = await h.call('GET', jobs('?mode=test&state=failed'), { token: owner.access });
      assert.deepEqual(failed.body.data, []);
      const bad = await h.call('GET', jobs('?mode=sandbox&state=lost&limit=0'), {
        token: owner.access,
      });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.body.error.details.map((d: { path: string }) => d.path).sort(), [
        'limit',
        'mode',
        'state',
      ]);
    });

    test('cancel of a printed job is 409 JOB_ALREADY_FINISHED; reprint makes a new job naming the original', async () => {
      const { body } = await h.call('POST', jobs('?mode=test'), {
        token: owner.access,
        body: receipt('Again'),
      });
      const cancel = await h.call('POST', jobs(`/${body.id}/cancel?mode=test`), {
        token: owner.access,
      });
      assert.equal(cancel.status, 409);
      assert.equal(cancel.body.error.code, 'JOB_ALREADY_FINISHED');
      const reprint = await h.call('POST', jobs(`/${body.id}/reprint?mode=test`), {
        token: owner.access,
      });
      assert.equal(reprint.status, 201);
      assert.equal(reprint.body.metadata.reprintOf, body.id);
    });

    test('a live job without a printer is INVALID_JOB naming the field', async () => {
      const res = await h.call('POST', jobs(), { token: owner.access, body: receipt('x') });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'INVALID_JOB');
      assert.ok(res.body.error.details.some((d: { path: string }) => d.path === 'printer'));
    });

    test('viewers read jobs but do not create, cancel or reprint them; strangers see 404', async () => {
      const { body } = await h.call('POST', jobs('?mode=test'), {
        token: owner.access,
        body: receipt('Roles'),
      });
      const people: Record<string, Person> = { owner };
      for (const r of ROLES.filter((x) => x !== 'owner')) {
        people[r] = await h.person(`j${r}`);
        await h.store.organizations.addMember(orgId, people[r]!.userId, r, h.clock.now());
      }
      const table: Array<[string, string, unknown, Record<string, number>]> = [
        [
          'GET',
          jobs('?mode=test'),
          undefined,
          { owner: 200, admin: 200, developer: 200, viewer: 200 },
        ],
        [
          'GET',
          jobs(`/${body.id}?mode=test`),
          undefined,
          { owner: 200, admin: 200, developer: 200, viewer: 200 },
        ],
        [
          'POST',
          jobs('?mode=test'),
          receipt('r'),
          { owner: 201, admin: 201, developer: 201, viewer: 403 },
        ],
        [
          'POST',
          jobs(`/${body.id}/cancel?mode=test`),
          undefined,
          { owner: 409, admin: 409, developer: 409, viewer: 403 },
        ],
      ];
      for (const [method, path, reqBody, expected] of table) {
        for (const r of ROLES) {
          const res = await h.call(method, path, { token: people[r]!.access, body: reqBody });
          assert.equal(res.status, expected[r], `${r} ${method} ${path}`);
        }
      }
      const stranger = await h.person('JobStranger');
      const res = await h.call('GET', jobs(`/${body.id}?mode=test`), { token: stranger.access });
      assert.equal(res.status, 404);
    });
  });
}
