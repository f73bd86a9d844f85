import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gallery } from '@printwire/shared/gallery/index';
import { ROLES } from '../../accounts/permissions.js';
import { startDashboard, type DashboardHarness, type Person } from '../../testing/dashboard.js';

const MB2 = 2 * 1024 * 1024;
const paths = (body: { error: { details?: Array<{ path: string }> } }) =>
  (body.error.details ?? []).map((d) => d.path).sort();

describe('dashboard templates', () => {
  let h: DashboardHarness;
  let owner: Person;
  before(async () => {
    h = await startDashboard();
    owner = await h.person('TplOwner');
  });
  after(() => h.close());

  const newOrg = async (name = 'Templates') =>
    (await h.call('POST', '/orgs', { token: owner.access, body: { name } })).body.id as string;

  test('create, list, update (version + 1), delete', async () => {
    const org = await newOrg();
    const t = `/orgs/${org}/templates`;
    const created = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'Label', type: 'zpl', content: '^XA^FD{{name}}^FS^XZ', paper: '4x6in' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.version, 1);
    const id = created.body.id as string;
    const updated = await h.call('PATCH', `${t}/${id}`, {
      token: owner.access,
      body: { content: '^XA^FD{{name}} {{sku}}^FS^XZ' },
    });
    assert.equal(updated.body.version, 2);
    assert.equal(updated.body.name, 'Label');
    assert.equal(updated.body.paper, '4x6in');
    const list = await h.call('GET', t, { token: owner.access });
    assert.deepEqual(
      list.body.data.map((x: { id: string; version: number }) => [x.id, x.version]),
      [[id, 2]],
    );
    // The public API sees the same template.
    assert.equal((await h.store.templates.get(org, id))?.content, '^XA^FD{{name}} {{sku}}^FS^XZ');
    assert.equal((await h.call('DELETE', `${t}/${id}`, { token: owner.access })).status, 200);
    assert.equal((await h.call('DELETE', `${t}/${id}`, { token: owner.access })).status, 404);
  });

  test('a template that does not compile, and bad fields, are refused naming the field', async () => {
    const org = await newOrg();
    const t = `/orgs/${org}/templates`;
    const broken = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'Broken', type: 'html', content: '<p>{{#items}}</p>' },
    });
    assert.equal(broken.status, 400);
    assert.deepEqual(paths(broken.body), ['content']);
    assert.match(broken.body.error.message, /line 1/);
    const bad = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'n'.repeat(101), type: 'pdf', content: '' },
    });
    assert.deepEqual(paths(bad.body), ['content', 'name', 'type']);
  });

  test('receipt previews carry the receipt JSON and a PNG; labels their commands', async () => {
    const org = await newOrg();
    const t = `/orgs/${org}/templates`;
    const receipt = await h.call('POST', t, {
      token: owner.access,
      body: {
        name: 'Receipt',
        type: 'receipt',
        paper: '58mm',
        content: '{"blocks":[{"type":"text","value":"Hello {{name}}"}]}',
      },
    });
    assert.equal(receipt.status, 201, JSON.stringify(receipt.body));
    const preview = await h.call('POST', `${t}/${receipt.body.id}/preview`, {
      token: owner.access,
      body: { data: { name: 'Ana "quoted"' } },
    });
    assert.equal(preview.status, 200, JSON.stringify(preview.body));
    assert.equal(JSON.parse(preview.body.output).blocks[0].value, 'Hello Ana "quoted"');
    const png = Buffer.from(preview.body.image.replace(/^data:image\/png;base64,/, ''), 'base64');
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    assert.equal(png.readUInt32BE(16), 384, '58 mm paper is 384 dots wide');
    const zpl = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'Z', type: 'zpl', content: '^XA^FH^FD{{name}}^FS^XZ' },
    });
    const zplPreview = await h.call('POST', `${t}/${zpl.body.id}/preview`, {
      token: owner.access,
      body: { data: { name: 'a^b' } },
    });
    assert.equal(zplPreview.body.output, '^XA^FH^FDa_5Eb^FS^XZ');
    assert.equal(zplPreview.body.image, undefined);
  });

  test('a label template’s preview lists the warnings of its labels, each once; none, an empty list', async () => {
    const org = await newOrg();
    const t = `/orgs/${org}/templates`;
    // Two labels (^PQ2) whose QR code drops the same characters: one warning.
    const zpl = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'QR', type: 'zpl', content: '^XA^FO40,40^BQN,2,6^FDMM,{{code}}^FS^PQ2^XZ' },
    });
    const lossy = await h.call('POST', `${t}/${zpl.body.id}/preview`, {
      token: owner.access,
      body: { data: { code: 'AB12|cd' } },
    });
    assert.equal(lossy.status, 200, JSON.stringify(lossy.body));
    assert.equal(lossy.body.labels.length, 2);
    assert.deepEqual(lossy.body.warnings, [
      '^BQ field at 40,40: manual alphanumeric (A) mode holds only digits, capitals, space and $ % * + - . / :: 3 characters dropped, "|cd"',
    ]);
    const whole = await h.call('POST', `${t}/${zpl.body.id}/preview`, {
      token: owner.access,
      body: { data: { code: 'AB12' } },
    });
    assert.deepEqual([whole.body.skipped, whole.body.warnings], [[], []]);
  });

  test('a draft is previewed without saving it; a draft that does not compile names content with its line', async () => {
    const org = await newOrg();
    const t = `/orgs/${org}/templates`;
    const zpl = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'Z', type: 'zpl', content: '^XA^FD{{name}}^FS^XZ' },
    });
    const draft = await h.call('POST', `${t}/${zpl.body.id}/preview`, {
      token: owner.access,
      body: { data: { name: 'Ana' }, content: '^XA\n^FD{{name}} draft^FS\n^XZ' },
    });
    assert.equal(draft.status, 200, JSON.stringify(draft.body));
    assert.equal(draft.body.output, '^XA\n^FDAna draft^FS\n^XZ');
    const stored = await h.call('GET', t, { token: owner.access });
    assert.equal(stored.body.data[0].content, '^XA^FD{{name}}^FS^XZ', 'the draft is not saved');
    const broken = await h.call('POST', `${t}/${zpl.body.id}/preview`, {
      token: owner.access,
      body: { data: {}, content: '^XA\n{{#items}}\n^XZ' },
    });
    assert.equal(broken.status, 400);
    assert.deepEqual(paths(broken.body), ['content']);
    assert.match(broken.body.error.message, /line \d+, column \d+/);
    const empty = await h.call('POST', `${t}/${zpl.body.id}/preview`, {
      token: owner.access,
      body: { content: '' },
    });
    assert.deepEqual(paths(empty.body), ['content']);
  });

  test('the gallery lists its templates and one is copied into the organization', async () => {
    const org = await newOrg();
    const list = await h.call('GET', '/gallery/templates', { token: owner.access });
    assert.equal(list.body.data.length, gallery.length);
    const first = gallery[0]!;
    const copy = await h.call('POST', `/orgs/${org}/templates/from-gallery`, {
      token: owner.access,
      body: { galleryId: first.id },
    });
    assert.equal(copy.status, 201);
    assert.equal(copy.body.content, first.content);
    assert.equal(copy.body.type, first.type);
    const unknown = await h.call('POST', `/orgs/${org}/templates/from-gallery`, {
      token: owner.access,
      body: { galleryId: 'nope' },
    });
    assert.deepEqual(paths(unknown.body), ['galleryId']);
    assert.equal((await h.call('GET', '/gallery/templates')).status, 401);
  });

  test('an organization holds at most 2 MB of templates, on create and on update', async () => {
    const org = await newOrg();
    const t = `/orgs/${org}/templates`;
    const half = 'x'.repeat(MB2 / 2);
    const a = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'a', type: 'html', content: half },
    });
    assert.equal(a.status, 201);
    const b = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'b', type: 'html', content: half },
    });
    assert.equal(b.status, 201, 'exactly 2 MB is allowed');
    const c = await h.call('POST', t, {
      token: owner.access,
      body: { name: 'c', type: 'html', content: 'y' },
    });
    assert.equal(c.status, 400);
    assert.deepEqual(paths(c.body), ['content']);
    const grow = await h.call('PATCH', `${t}/${a.body.id}`, {
      token: owner.access,
      body: { content: `${half}z` },
    });
    assert.equal(grow.status, 400);
    assert.deepEqual(paths(grow.body), ['content']);
    const same = await h.call('PATCH', `${t}/${a.body.id}`, {
      token: owner.access,
      body: { content: `${half.slice(1)}z` },
    });
    assert.equal(same.status, 200);
  });

  test('an organization holds at most 200 templates', async () => {
    const org = await newOrg();
    for (let i = 0; i < 200; i++) {
      await h.store.templates.create(
        org,
        { name: `t${i}`, type: 'html', content: 'x' },
        h.clock.now(),
      );
    }
    const over = await h.call('POST', `/orgs/${org}/templates`, {
      token: owner.access,
      body: { name: 'one more', type: 'html', content: 'x' },
    });
    assert.equal(over.status, 400);
    assert.match(over.body.error.message, /200 templates/);
  });

  test('viewers read and preview, developers and above write, other organizations see 404', async () => {
    const org = await newOrg('Template roles');
    const tpl = await h.call('POST', `/orgs/${org}/templates`, {
      token: owner.access,
      body: { name: 'T', type: 'html', content: '<p>{{x}}</p>' },
    });
    const people: Record<string, Person> = { owner };
    for (const r of ROLES.filter((x) => x !== 'owner')) {
      people[r] = await h.person(`t${r}`);
      await h.store.organizations.addMember(org, people[r]!.userId, r, h.clock.now());
    }
    const t = `/orgs/${org}/templates`;
    const id = tpl.body.id as string;
    const write = { owner: 400, admin: 400, developer: 400, viewer: 403 };
    const table: Array<[string, string, unknown, Record<string, number>]> = [
      ['GET', t, undefined, { owner: 200, admin: 200, developer: 200, viewer: 200 }],
      ['POST', t, { name: '' }, write],
      ['PATCH', `${t}/${id}`, { name: '' }, write],
      [
        'DELETE',
        `${t}/tpl_nobody`,
        undefined,
        { owner: 404, admin: 404, developer: 404, viewer: 403 },
      ],
      [
        'POST',
        `${t}/${id}/preview`,
        { data: { x: 1 } },
        { owner: 200, admin: 200, developer: 200, viewer: 200 },
      ],
      ['POST', `${t}/from-gallery`, { galleryId: '' }, write],
    ];
    for (const [method, path, body, expected] of table) {
      for (const r of ROLES) {
        const res = await h.call(method, path, { token: people[r]!.access, body });
        assert.equal(res.status, expected[r], `${r} ${method} ${path}`);
      }
    }
    const stranger = await h.person('TplStranger');
    const theirs = (await h.call('POST', '/orgs', { token: stranger.access, body: { name: 'X' } }))
      .body.id;
    for (const [method, path, body] of [
      ['GET', t, undefined],
      ['PATCH', `${t}/${id}`, { name: 'mine' }],
      ['DELETE', `${t}/${id}`, undefined],
      ['POST', `${t}/${id}/preview`, {}],
      ['PATCH', `/orgs/${theirs}/templates/${id}`, { name: 'mine' }],
      ['DELETE', `/orgs/${theirs}/templates/${id}`, undefined],
      ['POST', `/orgs/${theirs}/templates/${id}/preview`, {}],
    ] as const) {
      const res = await h.call(method, path, { token: stranger.access, body });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
    assert.equal((await h.store.templates.get(org, id))?.name, 'T');
  });
});
