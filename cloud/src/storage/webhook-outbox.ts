/**
 * The webhook outbox. A state change that is a webhook event writes its event here in its own
 * transaction (job creation and transitions, device activation and presence, printer status,
 * alerts), so an event exists exactly when its change committed: a crash right after the commit
 * loses nothing. The intake (`drain`) turns events into one delivery row per endpoint and deletes
 * them, in one transaction.
 *
 * Only events that some enabled endpoint of the organization (in the event's mode) subscribes to
 * are written: the check is one indexed read in the same transaction, and an organization without
 * webhooks pays that read and nothing else.
 */
import {
  printerEventType,
  type AlertEventType,
  type DeviceEventType,
  type JobEventType,
  type PrinterEventType,
} from '@printwire/shared/contracts/webhook-events';
import type { Kysely, Transaction } from 'kysely';
import { newId } from '../lib/ids.js';
import type { Dialect } from './dialect.js';
import type { WriteFn } from './organizations.js';
import { PreparedCache, slot } from './prepared.js';
import type {
  AlertsTable,
  Database,
  WebhookDeliveriesTable,
  WebhookOutboxTable,
} from './schema.js';
import type { Device, Job, JobState, Mode, Printer } from './types.js';
import { toEndpoint, type WebhookEndpoint } from './webhook-endpoints.js';

export {
  printerEventType,
  type AlertEventType,
  type DeviceEventType,
  type JobEventType,
  type PrinterEventType,
};

/** The webhook event of each job state that has one (`sending`, … have none). */
export const JOB_STATE_EVENTS: Readonly<Partial<Record<JobState, JobEventType>>> = {
  queued: 'job.queued',
  printed: 'job.printed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
};

/** What an event's envelope `data` is made of: the stored record after the change. */
export type OutboxData =
  { job: Omit<Job, 'events'> } | { device: Device } | { printer: Printer } | { alert: AlertsTable };

export interface OutboxEvent {
  /** The event id (`evt_…`). */
  id: string;
  organizationId: string;
  /** Null (rows written before events had a mode): the endpoints of both modes receive it. */
  mode: Mode | null;
  type: string;
  data: OutboxData;
  createdAt: number;
}

interface Candidate {
  type: string;
  at: number;
  data: OutboxData;
}

/** Rows per delivery insert: well under both databases' limits on bound values. */
const INSERT_CHUNK = 500;

/** A device and its printers are test mode when they are the sandbox's, live otherwise. */
const modeOf = (r: { sandbox: boolean }): Mode => (r.sandbox ? 'test' : 'live');

export class WebhookOutbox {
  private readonly prepared = new PreparedCache();

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly dialect: Dialect,
  ) {}

  /**
   * The job's events that are webhook events. Each event's data is the job as it was right after
   * that event: `snapshots[i]`, or `job` (the job after the write) when none is given.
   */
  recordJob(
    trx: Transaction<Database>,
    job: Job,
    events: ReadonlyArray<{ state: JobState; at: number }>,
    snapshots?: ReadonlyArray<Job>,
  ): Promise<void> {
    let candidates: Candidate[] | undefined;
    events.forEach((event, i) => {
      const type = JOB_STATE_EVENTS[event.state];
      if (!type) return;
      const { events: _events, ...record } = snapshots?.[i] ?? job;
      (candidates ??= []).push({ type, at: event.at, data: { job: record } });
    });
    if (!candidates) return Promise.resolve();
    return this.record(trx, job.organizationId, job.mode, candidates);
  }

  recordDevice(
    trx: Transaction<Database>,
    type: DeviceEventType,
    device: Device,
    at: number,
  ): Promise<void> {
    return this.record(trx, device.organizationId, modeOf(device), [
      { type, at, data: { device } },
    ]);
  }

  /** A printer.* event for each printer whose status changed to one that raises an event. */
  async recordPrinterChanges(
    trx: Transaction<Database>,
    changes: ReadonlyArray<{ printer: Printer; previousStatus: string | null }>,
    at: number,
  ): Promise<void> {
    const byMode = new Map<Mode, { organizationId: string; candidates: Candidate[] }>();
    for (const { printer, previousStatus } of changes) {
      if (previousStatus === printer.status) continue;
      const type = printerEventType(printer.status);
      if (!type) continue;
      const mode = modeOf(printer);
      let group = byMode.get(mode);
      if (!group)
        byMode.set(mode, (group = { organizationId: printer.organizationId, candidates: [] }));
      group.candidates.push({ type, at, data: { printer } });
    }
    for (const [mode, group] of byMode) {
      await this.record(trx, group.organizationId, mode, group.candidates);
    }
  }

  /** Alerts concern the organization: both modes' endpoints receive them. */
  /**
   * An alert event, in its subject's mode: a sandbox printer's or device's alert goes to test
   * endpoints, every other alert (real devices and printers, the live jobs' failure rate) to live.
   */
  async recordAlert(
    trx: Transaction<Database>,
    type: AlertEventType,
    alert: AlertsTable,
    at: number,
  ): Promise<void> {
    const mode = (await this.isSandboxSubject(trx, alert)) ? 'test' : 'live';
    return this.record(trx, alert.organizationId, mode, [{ type, at, data: { alert } }]);
  }

  private async isSandboxSubject(trx: Transaction<Database>, alert: AlertsTable): Promise<boolean> {
    if (alert.kind === 'failure_rate') return false;
    const table = alert.kind === 'device_offline' ? 'devices' : 'printers';
    const row = await trx
      .selectFrom(table)
      .select('sandbox')
      .where('organizationId', '=', alert.organizationId)
      .where('id', '=', alert.subjectId)
      .executeTakeFirst();
    return Number(row?.sandbox ?? 0) === 1;
  }

  /** Writes the candidates some enabled endpoint subscribes to, in one insert. */
  private async record(
    trx: Transaction<Database>,
    organizationId: string,
    mode: Mode | null,
    candidates: Candidate[],
  ): Promise<void> {
    const subscribed = await this.subscribedTypes(trx, organizationId, mode);
    if (subscribed.size === 0) return;
    const json = new Map<OutboxData, string>();
    const rows: WebhookOutboxTable[] = [];
    for (const c of candidates) {
      if (!subscribed.has(c.type)) continue;
      let data = json.get(c.data);
      if (data === undefined) json.set(c.data, (data = JSON.stringify(c.data)));
      rows.push({
        id: newId('evt', c.at),
        organizationId,
        mode,
        eventType: c.type,
        data,
        createdAt: c.at,
      });
    }
    if (rows.length > 0) await trx.insertInto('webhookOutbox').values(rows).execute();
  }

  /** The events the organization's enabled endpoints of `mode` (null: any) subscribe to. */
  private async subscribedTypes(
    trx: Transaction<Database>,
    organizationId: string,
    mode: Mode | null,
  ): Promise<Set<string>> {
    const query = this.prepared.get(`outbox.subscribed.${mode !== null}`, () => {
      const q = this.read
        .selectFrom('webhookEndpoints')
        .select('events')
        .where('organizationId', '=', slot('org'))
        .where('enabled', '=', 1);
      return mode !== null ? q.where('mode', '=', slot('mode')) : q;
    });
    const rows = await query.execute<{ events: string }>(trx, { org: organizationId, mode });
    const types = new Set<string>();
    for (const row of rows) for (const type of JSON.parse(row.events) as string[]) types.add(type);
    return types;
  }

  /**
   * Replaces up to `limit` events, oldest first, by the delivery rows `toDeliveries` makes of them
   * and of the enabled endpoints of their organizations, in one transaction. On PostgreSQL the
   * events are taken `FOR UPDATE SKIP LOCKED`: an intake on another instance takes other events,
   * never the same ones, and nothing relies on ids committing in order. A delivery of an event
   * already delivered to that endpoint is skipped (unique index), so an event is stored once per
   * endpoint whatever happens. `toDeliveries` must be pure: on SQLite it may run twice.
   */
  async drain(
    limit: number,
    toDeliveries: (events: OutboxEvent[], endpoints: WebhookEndpoint[]) => WebhookDeliveriesTable[],
  ): Promise<{ events: number; deliveries: number }> {
    // A read first: most intakes find nothing, and need no write transaction to learn it.
    const waiting = await this.prepared
      .get('outbox.any', () => this.read.selectFrom('webhookOutbox').select('id').limit(1))
      .execute(this.read, {});
    if (waiting.length === 0) return { events: 0, deliveries: 0 };
    return this.write(async (trx) => {
      let q = trx
        .selectFrom('webhookOutbox')
        .selectAll()
        .orderBy('createdAt')
        .orderBy('id')
        .limit(limit);
      if (this.dialect === 'postgres') q = q.forUpdate().skipLocked();
      const rows = await q.execute();
      if (rows.length === 0) return { events: 0, deliveries: 0 };
      const organizations = [...new Set(rows.map((r) => r.organizationId))];
      const endpoints = await trx
        .selectFrom('webhookEndpoints')
        .selectAll()
        .where('organizationId', 'in', organizations)
        .where('enabled', '=', 1)
        .execute();
      const deliveries = toDeliveries(rows.map(toOutboxEvent), endpoints.map(toEndpoint));
      let stored = 0;
      for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
        const result = await trx
          .insertInto('webhookDeliveries')
          .values(deliveries.slice(i, i + INSERT_CHUNK))
          .onConflict((oc) => oc.columns(['endpointId', 'eventId']).doNothing())
          .executeTakeFirst();
        stored += Number(result.numInsertedOrUpdatedRows ?? 0);
      }
      await trx
        .deleteFrom('webhookOutbox')
        .where(
          'id',
          'in',
          rows.map((r) => r.id),
        )
        .execute();
      return { events: rows.length, deliveries: stored };
    });
  }

  /** Events waiting for the intake. */
  async size(): Promise<number> {
    const { count } = await this.read
      .selectFrom('webhookOutbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }
}

function toOutboxEvent(row: WebhookOutboxTable): OutboxEvent {
  return {
    id: row.id,
    organizationId: row.organizationId,
    mode: row.mode as Mode | null,
    type: row.eventType,
    data: JSON.parse(row.data) as OutboxData,
    createdAt: Number(row.createdAt),
  };
}
