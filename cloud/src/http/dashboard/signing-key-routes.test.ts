/**
 * Local mode in the dashboard API: signing keys and allowedOrigins, on SQLite and PostgreSQL.
 * What reaches the agents is tested in gateway/local-mode.test.ts.
 */
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { PROTOCOL_LIMITS } from '@printwire/shared/protocol/index';
import { storeKinds } from '../../testing/stores.js';
import { ROLES } from '../../accounts/permissions.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

/** Each detail's message, which starts with its path. */
const details = (body: { error: { details?: Array<{ path: string; message: string }> } }) =>
  (body.error.details ?? []).map((d) => {
    assert.ok(d.message.startsWith(`${d.path}: `), d.message);
    return d.message;
  });

for (const { kind, skip } of await storeKinds()) {
  describe(`local mode in the dashboard API (${kind})`, { skip }, () => {
    let h: DashboardHarness;
    let owner: Person;
    before(async () => {
      h = await startDashboard({ kind });
      owner = await h.person('Owner');
    });
    after(() => h?.close());

    async function newOrg(name = 'Corner Shop'): Promise<string> {
      const res = await h.call('POST', '/orgs', { token: owner.access, body: { name } });
      assert.equal(res.status, 201);
      return res.body.id as string;
    }

    test('a signing key is an Ed25519 pair whose private key is answered once, as PKCS#8 PEM', async () => {
      const id = await newOrg();
      const created = await h.call('POST', `/orgs/${id}/signing-keys`, {
        token: owner.access,
        body: { name: 'Web shop server' },
      });
      assert.equal(created.status, 201);
      const { signingKey, privateKey } = created.body;
      assert.match(privateKey, /^-----BEGIN PRIVATE KEY-----\n/);
      assert.match(signingKey.publicKey, /^-----BEGIN PUBLIC KEY-----\n/);
      assert.equal(signingKey.algorithm, 'Ed25519');
      assert.equal(signingKey.name, 'Web shop server');
      assert.equal(signingKey.revokedAt, null);
      assert.equal(createPrivateKey(privateKey).asymmetricKeyType, 'ed25519');
      // The private key signs what the listed public key verifies.
      const payload = Buffer.from('POST /v1/print https://shop.example.com');
      const signature = sign(null, payload, privateKey);
      const listed = await h.call('GET', `/orgs/${id}/signing-keys`, { token: owner.access });
      assert.equal(listed.status, 200);
      assert.equal(listed.body.data.length, 1);
      assert.deepEqual(listed.body.data[0], signingKey);
      assert.equal(JSON.stringify(listed.body).includes('PRIVATE'), false);
      const publicKey = createPublicKey(listed.body.data[0].publicKey);
      assert.equal(verify(null, payload, publicKey, signature), true);
      assert.equal(verify(null, Buffer.from('changed'), publicKey, signature), false);
    });

    test('a revoked key stays listed with revokedAt; revoking it again or an unknown key is 404', async () => {
      const id = await newOrg();
      const make = async (name: string) =>
        (
          await h.call('POST', `/orgs/${id}/signing-keys`, {
            token: owner.access,
            body: { name },
          })
        ).body.signingKey;
      const first = await make('first');
      h.clock.advance(1000);
      const second = await make('second');
      const del = await h.call('DELETE', `/orgs/${id}/signing-keys/${first.id}`, {
        token: owner.access,
      });
      assert.equal(del.status, 200);
      const again = await h.call('DELETE', `/orgs/${id}/signing-keys/${first.id}`, {
        token: owner.access,
      });
      assert.equal(again.status, 404);
      const unknown = await h.call('DELETE', `/orgs/${id}/signing-keys/sk_nobody`, {
        token: owner.access,
      });
      assert.equal(unknown.status, 404);
      const list = await h.call('GET', `/orgs/${id}/signing-keys`, { token: owner.access });
      assert.deepEqual(
        list.body.data.map((k: { id: string; revokedAt: string | null }) => [k.id, !!k.revokedAt]),
        [
          [second.id, false],
          [first.id, true],
        ],
      );
      assert.deepEqual(
        (await h.store.signingKeys.listActive(id)).map((k) => k.id),
        [second.id],
      );
    });

    test('another organization’s key answers 404 and stays active', async () => {
      const theirs = await newOrg('Theirs');
      const key = await h.call('POST', `/orgs/${theirs}/signing-keys`, {
        token: owner.access,
        body: { name: 'theirs' },
      });
      const mine = await newOrg('Mine');
      const del = await h.call('DELETE', `/orgs/${mine}/signing-keys/${key.body.signingKey.id}`, {
        token: owner.access,
      });
      assert.equal(del.status, 404);
      assert.equal((await h.store.signingKeys.listActive(theirs)).length, 1);
      const stranger = await h.person('Stranger');
      for (const [method, path] of [
        ['GET', `/orgs/${theirs}/signing-keys`],
        ['POST', `/orgs/${theirs}/signing-keys`],
        ['DELETE', `/orgs/${theirs}/signing-keys/${key.body.signingKey.id}`],
      ] as const) {
        const body = method === 'POST' ? { name: 'x' } : undefined;
        const res = await h.call(method, path, { token: stranger.access, body });
        assert.equal(res.status, 404, `${method} ${path}`);
      }
    });

    test('names are 1-100 characters, and the request needs a name', async () => {
      const id = await newOrg();
      for (const [body, status] of [
        [{ name: '' }, 400],
        [{ name: 'n' }, 201],
        [{ name: 'n'.repeat(100) }, 201],
        [{ name: 'n'.repeat(101) }, 400],
        [{}, 400],
      ] as const) {
        const res = await h.call('POST', `/orgs/${id}/signing-keys`, {
          token: owner.access,
          body,
        });
        assert.equal(res.status, status, JSON.stringify(body).slice(0, 40));
        if (status === 400) assert.deepEqual(details(res.body).length, 1);
      }
    });

    test('an organization holds at most 100 active keys; a revocation makes room', async () => {
      const id = await newOrg();
      const max = PROTOCOL_LIMITS.maxSigningKeys;
      assert.equal(max, 100);
      let last = '';
      for (let i = 0; i < max; i++) {
        const res = await h.call('POST', `/orgs/${id}/signing-keys`, {
          token: owner.access,
          body: { name: `key ${i}` },
        });
        assert.equal(res.status, 201, `key ${i}`);
        last = res.body.signingKey.id;
      }
      const over = await h.call('POST', `/orgs/${id}/signing-keys`, {
        token: owner.access,
        body: { name: 'one too many' },
      });
      assert.equal(over.status, 409);
      assert.equal(over.body.error.code, 'CONFLICT');
      assert.match(over.body.error.message, /at most 100 active signing keys/);
      await h.call('DELETE', `/orgs/${id}/signing-keys/${last}`, { token: owner.access });
      const room = await h.call('POST', `/orgs/${id}/signing-keys`, {
        token: owner.access,
        body: { name: 'after a revocation' },
      });
      assert.equal(room.status, 201);
    });

    test('signing keys are managed by the roles that manage API keys; every role may list them', async () => {
      const id = await newOrg('Roles');
      const people: Record<string, Person> = { owner };
      for (const r of ROLES.filter((x) => x !== 'owner')) {
        people[r] = await h.person(r);
        await h.store.organizations.addMember(id, people[r]!.userId, r, h.clock.now());
      }
      const o = `/orgs/${id}`;
      const table: Array<[string, string, unknown, Record<string, number>]> = [
        [
          'GET',
          `${o}/signing-keys`,
          undefined,
          { owner: 200, admin: 200, developer: 200, viewer: 200 },
        ],
        [
          'POST',
          `${o}/signing-keys`,
          { name: '' },
          { owner: 400, admin: 400, developer: 400, viewer: 403 },
        ],
        [
          'DELETE',
          `${o}/signing-keys/sk_nobody`,
          undefined,
          { owner: 404, admin: 404, developer: 404, viewer: 403 },
        ],
        [
          'PATCH',
          o,
          { allowedOrigins: ['nope'] },
          { owner: 400, admin: 400, developer: 403, viewer: 403 },
        ],
      ];
      for (const [method, path, body, expected] of table) {
        for (const r of ROLES) {
          const res = await h.call(method, path, { token: people[r]!.access, body });
          assert.equal(res.status, expected[r], `${r} ${method} ${path}`);
          if (res.status === 403) assert.equal(res.body.error.code, 'FORBIDDEN');
        }
      }
      const me = await h.call('GET', `${o}/me`, { token: people.developer!.access });
      assert.ok(me.body.permissions.includes('signingKeys:write'));
      assert.equal((await h.call('GET', `${o}/signing-keys`)).status, 401);
    });

    test('allowedOrigins is empty at first, then exactly what PATCH stored', async () => {
      const id = await newOrg();
      const fresh = await h.call('GET', `/orgs/${id}`, { token: owner.access });
      assert.deepEqual(fresh.body.allowedOrigins, []);
      const origins = ['https://shop.example.com', 'http://localhost:3000', 'http://[::1]:8080'];
      const res = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { allowedOrigins: origins },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.allowedOrigins, origins);
      const other = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { name: 'Renamed shop' },
      });
      assert.deepEqual(other.body.allowedOrigins, origins, 'other fields leave it alone');
      const cleared = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { allowedOrigins: [] },
      });
      assert.deepEqual(cleared.body.allowedOrigins, []);
      const listed = await h.call('GET', '/orgs', { token: owner.access });
      const mine = listed.body.data.find((o: { id: string }) => o.id === id);
      assert.deepEqual(mine.allowedOrigins, []);
    });

    test('an entry that is not an exact origin is refused, naming the entry and the rule', async () => {
      const id = await newOrg();
      const res = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: {
          allowedOrigins: [
            'https://ok.example.com',
            'https://shop.example.com/checkout',
            'https://*.example.com',
            'shop.example.com',
            'https://ok.example.com',
          ],
        },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'VALIDATION_FAILED');
      const found = details(res.body);
      assert.equal(found.length, 4, found.join('\n'));
      assert.match(
        found[0]!,
        /^allowedOrigins\[1\]: .*no path.*did you mean https:\/\/shop.example.com\?/,
      );
      assert.match(found[1]!, /^allowedOrigins\[2\]: wildcards are not allowed/);
      assert.match(found[2]!, /^allowedOrigins\[3\]: must be an origin/);
      assert.match(found[3]!, /^allowedOrigins\[4\]: https:\/\/ok.example.com is listed twice/);
      assert.match(res.body.error.message, /allowedOrigins\[1\]/);
      const stored = await h.call('GET', `/orgs/${id}`, { token: owner.access });
      assert.deepEqual(stored.body.allowedOrigins, [], 'nothing was stored');
      const notArray = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { allowedOrigins: 'https://shop.example.com' },
      });
      assert.equal(notArray.status, 400);
      assert.match(details(notArray.body)[0]!, /^allowedOrigins: /);
    });

    test('allowedOrigins holds at most 50 origins', async () => {
      const id = await newOrg();
      const origins = (n: number) =>
        Array.from({ length: n }, (_, i) => `https://shop${i}.example.com`);
      const at = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { allowedOrigins: origins(50) },
      });
      assert.equal(at.status, 200);
      assert.equal(at.body.allowedOrigins.length, 50);
      const over = await h.call('PATCH', `/orgs/${id}`, {
        token: owner.access,
        body: { allowedOrigins: origins(51) },
      });
      assert.equal(over.status, 400);
      assert.deepEqual(details(over.body), ['allowedOrigins: at most 50 origins']);
    });
  });
}
