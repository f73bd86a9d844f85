/**
 * Printer groups (../shared/CONTRACT.md "Printer groups"): the groups and their ordered members,
 * round-robin's cursor, and the compare-and-set writes that hand a group job to a member. Every
 * hand-over checks, in its own write, that the job is still where its caller saw it (its printer,
 * its state, not sent), so that two instances never give one job to two members.
 */
import type { Kysely, Transaction } from 'kysely';
import { newId } from '../lib/ids.js';
import type { GroupPick, GroupTurn } from './job-types.js';
import type { WriteFn } from './organizations.js';
import { toJob } from './rows.js';
import type { Database } from './schema.js';
import type { GroupStrategy, Job, JobEvent, PrinterGroup } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';

/** A member as routing sees it: its printer's status and its device's. */
export interface GroupMember {
  printerId: string;
  deviceId: string;
  agentPrinterId: string;
  status: string;
  deviceStatus: string;
}

export interface GroupInput {
  name: string;
  strategy: GroupStrategy;
  printerIds: string[];
}

/** How a group job may be found before it is handed over (see `PrinterGroupsRepository.assign`). */
export interface AssignExpectation {
  /** The member that has it now (null: none yet). */
  printerId: string | null;
  /**
   * `waiting`: queued and never sent (the cloud holds it). `withdrawn`: queued or being sent, the
   * agent having given it back (`job.withdrawn` withdrawn:true).
   */
  from: 'waiting' | 'withdrawn';
}

export interface Assigned {
  job: Job;
  /** The `queued` event written when the job moved from a member (announced as job.queued). */
  event: JobEvent | undefined;
}

/**
 * Round-robin's turn inside a write: locks the group's row (an update that changes nothing holds
 * the row lock on PostgreSQL until the commit; SQLite has one writer), reads the cursor, and moves
 * it to the member `pick` answers. Null when no member is ready (the cursor stays).
 */
export async function takeTurn(
  trx: Transaction<Database>,
  organizationId: string,
  turn: GroupTurn,
): Promise<GroupPick | null> {
  await trx
    .updateTable('printerGroups')
    .set((eb) => ({ lastPrinterId: eb.ref('lastPrinterId') }))
    .where('organizationId', '=', organizationId)
    .where('id', '=', turn.groupId)
    .execute();
  const row = await trx
    .selectFrom('printerGroups')
    .select('lastPrinterId')
    .where('organizationId', '=', organizationId)
    .where('id', '=', turn.groupId)
    .executeTakeFirst();
  const picked = turn.pick(row?.lastPrinterId ?? null);
  if (picked && row) {
    await trx
      .updateTable('printerGroups')
      .set({ lastPrinterId: picked.printerId })
      .where('organizationId', '=', organizationId)
      .where('id', '=', turn.groupId)
      .execute();
  }
  return picked;
}

export class PrinterGroupsRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    /** A moved job's job.queued webhook is written with the move (see webhook-outbox.ts). */
    private readonly outbox?: WebhookOutbox,
  ) {}

  /** The organization's groups, oldest first. */
  async list(organizationId: string): Promise<PrinterGroup[]> {
    const groups = await this.read
      .selectFrom('printerGroups')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
    const members = await this.read
      .selectFrom('printerGroupMembers')
      .select(['groupId', 'printerId'])
      .where('organizationId', '=', organizationId)
      .orderBy('groupId')
      .orderBy('position')
      .execute();
    const byGroup = new Map<string, string[]>();
    for (const m of members) {
      const list = byGroup.get(m.groupId) ?? [];
      list.push(m.printerId);
      byGroup.set(m.groupId, list);
    }
    return groups.map((g) => toGroup(g, byGroup.get(g.id) ?? []));
  }

  async get(organizationId: string, id: string): Promise<PrinterGroup | undefined> {
    return getIn(this.read, organizationId, id);
  }

  /** The ids among `printerIds` that name no real (non-sandbox) printer of the organization. */
  async unknownPrinters(organizationId: string, printerIds: string[]): Promise<string[]> {
    if (printerIds.length === 0) return [];
    const rows = await this.read
      .selectFrom('printers')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('sandbox', '=', 0)
      .where('id', 'in', printerIds)
      .execute();
    const known = new Set(rows.map((r) => r.id));
    return printerIds.filter((id) => !known.has(id));
  }

  async create(organizationId: string, input: GroupInput, now: number): Promise<PrinterGroup> {
    const id = newId('grp', now);
    return this.write(async (trx) => {
      await trx
        .insertInto('printerGroups')
        .values({
          id,
          organizationId,
          name: input.name,
          strategy: input.strategy,
          lastPrinterId: null,
          createdAt: now,
          updatedAt: now,
        })
        .execute();
      await insertMembers(trx, organizationId, id, input.printerIds);
      return (await getIn(trx, organizationId, id))!;
    });
  }

  /** Changes what is given; undefined when there is no such group. */
  async update(
    organizationId: string,
    id: string,
    patch: Partial<GroupInput>,
    now: number,
  ): Promise<PrinterGroup | undefined> {
    return this.write(async (trx) => {
      const updated = await trx
        .updateTable('printerGroups')
        .set({
          updatedAt: now,
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.strategy !== undefined ? { strategy: patch.strategy } : {}),
        })
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return undefined;
      if (patch.printerIds !== undefined) {
        await trx.deleteFrom('printerGroupMembers').where('groupId', '=', id).execute();
        await insertMembers(trx, organizationId, id, patch.printerIds);
      }
      return getIn(trx, organizationId, id);
    });
  }

  /** Deletes the group (its members with it); false when there is none. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return this.write(async (trx) => {
      await trx.deleteFrom('printerGroupMembers').where('groupId', '=', id).execute();
      const deleted = await trx
        .deleteFrom('printerGroups')
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(deleted.numDeletedRows) > 0;
    });
  }

  /** The group with its members in order, each with its printer's and device's status. */
  async withMembers(
    organizationId: string,
    id: string,
  ): Promise<{ group: PrinterGroup; members: GroupMember[] } | undefined> {
    const rows = await this.read
      .selectFrom('printerGroups')
      .leftJoin('printerGroupMembers', 'printerGroupMembers.groupId', 'printerGroups.id')
      .leftJoin('printers', 'printers.id', 'printerGroupMembers.printerId')
      .leftJoin('devices', 'devices.id', 'printers.deviceId')
      .select([
        'printerGroups.id',
        'printerGroups.organizationId',
        'printerGroups.name',
        'printerGroups.strategy',
        'printerGroups.lastPrinterId',
        'printerGroups.createdAt',
        'printerGroups.updatedAt',
        'printerGroupMembers.printerId as memberId',
        'printers.deviceId as deviceId',
        'printers.agentPrinterId as agentPrinterId',
        'printers.status as status',
        'devices.status as deviceStatus',
      ])
      .where('printerGroups.organizationId', '=', organizationId)
      .where('printerGroups.id', '=', id)
      .orderBy('printerGroupMembers.position')
      .execute();
    const first = rows[0];
    if (!first) return undefined;
    const members: GroupMember[] = [];
    for (const r of rows) {
      if (!r.memberId || !r.deviceId || !r.agentPrinterId) continue;
      members.push({
        printerId: r.memberId,
        deviceId: r.deviceId,
        agentPrinterId: r.agentPrinterId,
        status: r.status ?? 'unknown',
        deviceStatus: r.deviceStatus ?? 'offline',
      });
    }
    const group = toGroup(
      first,
      members.map((m) => m.printerId),
    );
    return { group, members };
  }

  /** The ids of the organization's groups that hold any of `printerIds`. */
  async groupsHolding(organizationId: string, printerIds: string[]): Promise<string[]> {
    if (printerIds.length === 0) return [];
    const rows = await this.read
      .selectFrom('printerGroupMembers')
      .select('groupId')
      .distinct()
      .where('organizationId', '=', organizationId)
      .where('printerId', 'in', printerIds)
      .execute();
    return rows.map((r) => r.groupId);
  }

  /** A group's jobs the cloud still holds (queued, never sent), oldest first. */
  async waitingJobs(organizationId: string, groupId: string, limit: number): Promise<Job[]> {
    const rows = await this.read
      .selectFrom('jobs')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('printerGroupId', '=', groupId)
      .where('state', '=', 'queued')
      .where('dispatchedAt', 'is', null)
      .orderBy('createdAt')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toJob);
  }

  /** Unfinished group jobs that the member `printerId` has now (queued or being sent). */
  async jobsOfMember(organizationId: string, printerId: string, limit: number): Promise<Job[]> {
    const rows = await this.read
      .selectFrom('jobs')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('printerId', '=', printerId)
      .where('printerGroupId', 'is not', null)
      .where('state', 'in', ['queued', 'sending'])
      .where('mode', '=', 'live')
      .orderBy('createdAt')
      .limit(limit)
      .execute();
    return rows.map(toJob);
  }

  /**
   * Hands a group job to `to` (null: back to no member, waiting), only if it is still as
   * `expect` says (compare-and-set in the write). A job taken from a member is moved: the member
   * joins `movedFrom`, and a `queued` event (and its job.queued webhook) is written with it.
   * Undefined when the job changed meanwhile (another instance handed it over, it was sent,
   * cancelled or finished).
   */
  async assign(
    organizationId: string,
    jobId: string,
    expect: AssignExpectation,
    to: GroupPick | GroupTurn | null,
    now: number,
  ): Promise<Assigned | undefined> {
    return this.write(async (trx) => {
      const row = await trx
        .selectFrom('jobs')
        .selectAll()
        .where('organizationId', '=', organizationId)
        .where('id', '=', jobId)
        .executeTakeFirst();
      if (!row) return undefined;
      const job = toJob(row);
      const states = expect.from === 'waiting' ? ['queued'] : ['queued', 'sending'];
      if (
        job.printerGroupId === null ||
        job.printerId !== expect.printerId ||
        !states.includes(job.state) ||
        (expect.from === 'waiting' && job.dispatchedAt !== null)
      ) {
        return undefined;
      }
      const target =
        to === null ? null : 'pick' in to ? await takeTurn(trx, organizationId, to) : to;
      const moved = job.printerId !== null && target?.printerId !== job.printerId;
      // Given back while `sending`: the agent had not made the attempt it was dispatched with
      // (a failure would have made the job `queued`, its retry held). A move is not a failure:
      // the attempt is given back too, and the next delivery starts it again. Only failures use
      // up maxAttempts; the delivery number tells the dispatches apart (docs/groups.md).
      const attempt = job.state === 'sending' ? Math.max(0, job.attempt - 1) : job.attempt;
      const next: Job = {
        ...job,
        state: 'queued',
        attempt,
        printerId: target?.printerId ?? null,
        deviceId: target?.deviceId ?? null,
        dispatchedAt: null,
        updatedAt: now,
        movedFrom: moved ? [...job.movedFrom, job.printerId!] : job.movedFrom,
      };
      let q = trx
        .updateTable('jobs')
        .set({
          state: next.state,
          attempt: next.attempt,
          printerId: next.printerId,
          deviceId: next.deviceId,
          dispatchedAt: null,
          updatedAt: now,
          movedFrom: JSON.stringify(next.movedFrom),
        })
        .where('id', '=', jobId)
        .where('state', '=', job.state);
      q =
        job.printerId === null
          ? q.where('printerId', 'is', null)
          : q.where('printerId', '=', job.printerId);
      if (expect.from === 'waiting') q = q.where('dispatchedAt', 'is', null);
      const updated = await q.executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return undefined;
      let event: JobEvent | undefined;
      if (moved) {
        event = {
          state: 'queued',
          errorCode: null,
          errorMessage: null,
          printerId: next.printerId,
          at: now,
        };
        await trx
          .insertInto('jobEvents')
          .values({ jobId, organizationId, ...event })
          .execute();
        await this.outbox?.recordJob(trx, next, [event]);
      }
      return { job: next, event };
    });
  }
}

async function insertMembers(
  trx: Transaction<Database>,
  organizationId: string,
  groupId: string,
  printerIds: string[],
): Promise<void> {
  if (printerIds.length === 0) return;
  await trx
    .insertInto('printerGroupMembers')
    .values(
      printerIds.map((printerId, position) => ({ groupId, organizationId, position, printerId })),
    )
    .execute();
}

async function getIn(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<PrinterGroup | undefined> {
  const row = await db
    .selectFrom('printerGroups')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const members = await db
    .selectFrom('printerGroupMembers')
    .select('printerId')
    .where('groupId', '=', id)
    .orderBy('position')
    .execute();
  return toGroup(
    row,
    members.map((m) => m.printerId),
  );
}

function toGroup(
  row: {
    id: string;
    organizationId: string;
    name: string;
    strategy: string;
    lastPrinterId: string | null;
    createdAt: number;
    updatedAt: number;
  },
  printerIds: string[],
): PrinterGroup {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    strategy: row.strategy as GroupStrategy,
    printerIds,
    lastPrinterId: row.lastPrinterId,
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}
