/**
 * Printer groups' compare-and-set writes on two instances over one database (PostgreSQL: two
 * pools; SQLite: one writer): round-robin turns taken at once never repeat a member, and a job
 * handed over at once by both instances goes to one member only.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { hashSecret } from '../services/api-keys.js';
import { chooseMember } from '../services/targets.js';
import { storeKinds, textJobInput, twoInstancesPerSuite } from '../testing/stores.js';
import type { GroupMember } from './printer-groups.js';

const T0 = Date.parse('2026-03-10T10:00:00.000Z');

for (const { kind, skip } of await storeKinds()) {
  describe(`printer groups on two instances (${kind})`, { skip }, () => {
    const pair = twoInstancesPerSuite(kind);
    let org: string;
    let printerIds: string[];

    before(async () => {
      const { a } = pair;
      org = (await a.organizations.create({ name: 'Two tills' }, T0, [])).id;
      await a.organizations.createActivationCode(
        org,
        { codeHash: hashSecret('code'), name: null, expiresAt: T0 + 3_600_000 },
        T0,
      );
      const device = await a.devices.activate(
        {
          codeHash: hashSecret('code'),
          tokenHash: 'h',
          name: 'till',
          os: 'linux',
          arch: 'x64',
          agentVersion: '1',
        },
        T0,
      );
      const reported = ['a', 'b', 'c'].map((agentPrinterId) => ({
        agentPrinterId,
        name: agentPrinterId,
        alias: null,
        connection: 'tcp',
        kind: 'receipt',
        paper: '80mm',
        codepage: null,
        capabilities: [],
        isDefault: false,
        status: 'online',
      }));
      const changes = await a.devices.upsertPrinters(org, device!.id, reported, T0);
      printerIds = ['a', 'b', 'c'].map(
        (id) => changes.find((c) => c.printer.agentPrinterId === id)!.printer.id,
      );
      await a.devices.setPresence(org, device!.id, 'online', T0);
    });

    test('round-robin turns taken at once by both instances go round in turn', async () => {
      const { a, b } = pair;
      const group = await a.printerGroups.create(
        org,
        { name: 'Tills', strategy: 'round-robin', printerIds },
        T0,
      );
      const { members } = (await a.printerGroups.withMembers(org, group.id))!;
      const turn = (ms: GroupMember[]) => ({
        groupId: group.id,
        pick: (last: string | null) => chooseMember('round-robin', ms, last),
      });
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 === 0 ? a : b).jobs.create(
            textJobInput(org, { printerGroupId: group.id, groupTurn: turn(members) }),
            T0 + i,
          ),
        ),
      );
      const counts = new Map<string, number>();
      for (const { job } of created)
        counts.set(job.printerId!, (counts.get(job.printerId!) ?? 0) + 1);
      assert.deepEqual([...counts.values()], [4, 4, 4]);
      assert.ok(printerIds.includes((await b.printerGroups.get(org, group.id))!.lastPrinterId!));
    });

    test('a job handed over by both instances at once goes to one member only', async () => {
      const { a, b } = pair;
      const group = await a.printerGroups.create(
        org,
        { name: 'Kitchen', strategy: 'failover', printerIds },
        T0,
      );
      const { job } = await a.jobs.create(textJobInput(org, { printerGroupId: group.id }), T0);
      assert.equal(job.printerId, null);
      const { members } = (await a.printerGroups.withMembers(org, group.id))!;
      const [x, y] = await Promise.all([
        a.printerGroups.assign(org, job.id, { printerId: null, from: 'waiting' }, members[1]!, T0),
        b.printerGroups.assign(org, job.id, { printerId: null, from: 'waiting' }, members[2]!, T0),
      ]);
      assert.equal([x, y].filter(Boolean).length, 1);
      const stored = (await b.jobs.get(org, 'live', job.id))!;
      assert.equal(stored.printerId, (x ?? y)!.job.printerId);
      // A second move from the old place changes nothing; from the new one, it moves.
      assert.equal(
        await a.printerGroups.assign(
          org,
          job.id,
          { printerId: null, from: 'waiting' },
          members[0]!,
          T0,
        ),
        undefined,
      );
      const moved = await a.printerGroups.assign(
        org,
        job.id,
        { printerId: stored.printerId, from: 'waiting' },
        members[0]!,
        T0 + 1,
      );
      assert.deepEqual(moved!.job.movedFrom, [stored.printerId]);
      assert.equal(moved!.event!.state, 'queued');
      const events = (await b.jobs.get(org, 'live', job.id))!.events!;
      assert.deepEqual(
        events.map((e) => e.state),
        ['queued', 'queued'],
      );
    });

    /** A failover group of the three printers, and a job its first member has. */
    async function jobOfFirstMember(name: string) {
      const { a } = pair;
      const group = await a.printerGroups.create(
        org,
        { name, strategy: 'failover', printerIds },
        T0,
      );
      const { members } = (await a.printerGroups.withMembers(org, group.id))!;
      const { job } = await a.jobs.create(
        textJobInput(org, {
          printerGroupId: group.id,
          printerId: members[0]!.printerId,
          deviceId: members[0]!.deviceId,
        }),
        T0,
      );
      return { members, job };
    }

    test('a claimed job is not handed over; a claim of a job moved meanwhile fails', async () => {
      const { a, b } = pair;
      const { members, job } = await jobOfFirstMember('Bar');
      await a.printerGroups.assign(
        org,
        job.id,
        { printerId: members[0]!.printerId, from: 'waiting' },
        members[1]!,
        T0,
      );
      await assert.rejects(
        b.jobs.transition(
          org,
          null,
          job.id,
          'sending',
          { onlyIfPrinter: members[0]!.printerId },
          T0,
        ),
        { code: 'CONFLICT' },
      );
      await b.jobs.transition(
        org,
        null,
        job.id,
        'sending',
        { onlyIfPrinter: members[1]!.printerId },
        T0,
      );
      assert.equal(
        await a.printerGroups.assign(
          org,
          job.id,
          { printerId: members[1]!.printerId, from: 'waiting' },
          members[2]!,
          T0,
        ),
        undefined,
      );
    });

    test('a job given back and moved keeps its attempts; each dispatch is a new delivery', async () => {
      const { a, b } = pair;
      const { members, job } = await jobOfFirstMember('Pass');
      let at = 0;
      // Dispatched, given back before its attempt, moved: many more times than maxAttempts.
      for (let i = 1; i <= 5; i++) {
        const sent = await (i % 2 ? a : b).jobs.transition(
          org,
          null,
          job.id,
          'sending',
          { onlyIfPrinter: members[at]!.printerId },
          T0 + i,
        );
        assert.deepEqual([sent.job.attempt, sent.job.deliveries], [1, i]);
        const moved = await (i % 2 ? b : a).printerGroups.assign(
          org,
          job.id,
          { printerId: members[at]!.printerId, from: 'withdrawn' },
          members[1 - at]!,
          T0 + i,
        );
        assert.deepEqual([moved!.job.attempt, moved!.job.deliveries], [0, i]);
        at = 1 - at;
      }
      // The agent failed an attempt before its first byte (its retry held: queued), then gave
      // the job back: that attempt stays used.
      await a.jobs.transition(org, null, job.id, 'sending', {}, T0 + 10);
      await a.jobs.transition(org, null, job.id, 'queued', {}, T0 + 11);
      const moved = await b.printerGroups.assign(
        org,
        job.id,
        { printerId: members[at]!.printerId, from: 'withdrawn' },
        members[1 - at]!,
        T0 + 12,
      );
      assert.deepEqual([moved!.job.attempt, moved!.job.deliveries], [1, 6]);
      const stored = (await b.jobs.get(org, 'live', job.id))!;
      assert.deepEqual([stored.attempt, stored.deliveries, stored.state], [1, 6, 'queued']);
      const next = await b.jobs.transition(org, null, job.id, 'sending', {}, T0 + 13);
      assert.deepEqual([next.job.attempt, next.job.deliveries], [2, 7]);
    });
  });
}
