/**
 * Webhook endpoints and deliveries. Every read and write names the organization, except the
 * worker's (`due`, `claim`, `finishAttempt`), which spans organizations like the sweeper.
 * E-mails to an organization's owners that follow a change here (an alert opened or resolved, an
 * endpoint disabled) are written to the mail outbox in the transaction of that change.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { newestFirst, type CursorPosition } from './cursor.js';
import type { MailOutbox } from './mail-outbox.js';
import type { WriteFn } from './organizations.js';
import type {
  AlertRulesTable,
  AlertsTable,
  Database,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './schema.js';
import type { Mode } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';
import { toEndpoint, type WebhookEndpoint } from './webhook-endpoints.js';

export { toEndpoint, type WebhookEndpoint };

export type WebhookDelivery = WebhookDeliveriesTable & {
  state: 'pending' | 'succeeded' | 'failed';
};

/** An e-mail to every owner of the organization: its subject and text. */
export interface OwnerMail {
  subject: string;
  text: string;
}

/**
 * The owners' e-mail of an alert change, made from the alert as stored after it. Pure: on SQLite
 * the transaction that calls it may run twice.
 */
export type AlertMail = (alert: AlertsTable) => OwnerMail;

/** The e-mail addresses of the organization's owners, read through `db` (or a transaction). */
async function ownerEmailsOf(db: Kysely<Database>, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.userId')
    .select('u.email')
    .where('m.organizationId', '=', organizationId)
    .where('m.role', '=', 'owner')
    .orderBy('u.email')
    .execute();
  return rows.map((r) => r.email);
}

export class WebhooksRepository {
  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    /** Events written with their changes, and the intake that turns them into deliveries. */
    readonly outbox: WebhookOutbox,
    /** E-mails written with their changes; the mail sender sends them. */
    readonly mail: MailOutbox,
  ) {}

  async createEndpoint(
    endpoint: Omit<WebhookEndpoint, 'enabled' | 'disabledReason' | 'failingSince'>,
    maxPerOrganization: number,
  ): Promise<WebhookEndpoint | 'limit'> {
    return this.write(async (trx) => {
      const { count } = await trx
        .selectFrom('webhookEndpoints')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('organizationId', '=', endpoint.organizationId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxPerOrganization) return 'limit' as const;
      const row: WebhookEndpointsTable = {
        ...endpoint,
        events: JSON.stringify(endpoint.events),
        enabled: 1,
        disabledReason: null,
        failingSince: null,
      };
      await trx.insertInto('webhookEndpoints').values(row).execute();
      return toEndpoint(row);
    });
  }

  async getEndpoint(organizationId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.read
      .selectFrom('webhookEndpoints')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toEndpoint(row) : undefined;
  }

  /** Newest first, keyset-paged on (createdAt, id). */
  async listEndpoints(
    organizationId: string,
    mode: Mode | undefined,
    page: { after?: CursorPosition | undefined; limit: number },
  ): Promise<WebhookEndpoint[]> {
    let q = this.read
      .selectFrom('webhookEndpoints')
      .selectAll()
      .where('organizationId', '=', organizationId);
    if (mode) q = q.where('mode', '=', mode);
    const rows = await newestFirst(q, page).execute();
    return rows.map(toEndpoint);
  }

  async updateEndpoint(
    organizationId: string,
    id: string,
    patch: Partial<
      Pick<
        WebhookEndpoint,
        'url' | 'events' | 'description' | 'secret' | 'enabled' | 'disabledReason' | 'failingSince'
      >
    >,
    now: number,
  ): Promise<WebhookEndpoint | undefined> {
    const set: Partial<WebhookEndpointsTable> = { updatedAt: now };
    if (patch.url !== undefined) set.url = patch.url;
    if (patch.events !== undefined) set.events = JSON.stringify(patch.events);
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.secret !== undefined) set.secret = patch.secret;
    if (patch.enabled !== undefined) set.enabled = patch.enabled ? 1 : 0;
    if (patch.disabledReason !== undefined) set.disabledReason = patch.disabledReason;
    if (patch.failingSince !== undefined) set.failingSince = patch.failingSince;
    await this.write((trx) =>
      trx
        .updateTable('webhookEndpoints')
        .set(set)
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .execute(),
    );
    return this.getEndpoint(organizationId, id);
  }

  async deleteEndpoint(organizationId: string, id: string): Promise<boolean> {
    return this.write(async (trx) => {
      await trx
        .deleteFrom('webhookDeliveries')
        .where('endpointId', '=', id)
        .where('organizationId', '=', organizationId)
        .execute();
      const result = await trx
        .deleteFrom('webhookEndpoints')
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Stores deliveries (one per endpoint) before any attempt. */
  async insertDeliveries(rows: WebhookDeliveriesTable[]): Promise<void> {
    if (rows.length === 0) return;
    await this.write((trx) => trx.insertInto('webhookDeliveries').values(rows).execute());
  }

  async getDelivery(organizationId: string, id: string): Promise<WebhookDelivery | undefined> {
    const row = await this.read
      .selectFrom('webhookDeliveries')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row as WebhookDelivery | undefined;
  }

  /** Newest first, keyset-paged on (createdAt, id). */
  async listDeliveries(
    organizationId: string,
    endpointId: string,
    page: { after?: CursorPosition | undefined; limit: number },
  ): Promise<WebhookDelivery[]> {
    const q = this.read
      .selectFrom('webhookDeliveries')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('endpointId', '=', endpointId);
    const rows = await newestFirst(q, page).execute();
    return rows as WebhookDelivery[];
  }

  /** Pending deliveries due at `now`, of enabled endpoints, oldest first. */
  async due(
    now: number,
    limit: number,
  ): Promise<Array<WebhookDelivery & { url: string; secret: string; endpointMode: string }>> {
    const rows = await this.read
      .selectFrom('webhookDeliveries as d')
      .innerJoin('webhookEndpoints as e', 'e.id', 'd.endpointId')
      .selectAll('d')
      .select(['e.url as url', 'e.secret as secret', 'e.mode as endpointMode'])
      .where('d.state', '=', 'pending')
      .where('d.nextAttemptAt', '<=', now)
      .where('e.enabled', '=', 1)
      .orderBy('d.nextAttemptAt')
      .orderBy('d.id')
      .limit(limit)
      .execute();
    return rows as Array<WebhookDelivery & { url: string; secret: string; endpointMode: string }>;
  }

  /**
   * Takes a due delivery for one attempt: moves `nextAttemptAt` to `leaseUntil` if nobody else
   * did (so another instance, or this one after a crash, tries it again only after the lease).
   */
  async claim(id: string, seenNextAttemptAt: number, leaseUntil: number): Promise<boolean> {
    const result = await this.write((trx) =>
      trx
        .updateTable('webhookDeliveries')
        .set({ nextAttemptAt: leaseUntil })
        .where('id', '=', id)
        .where('state', '=', 'pending')
        .where('nextAttemptAt', '=', seenNextAttemptAt)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /** `claim` for several rows in one transaction; returns the ids this call took. */
  async claimMany(
    rows: Array<{ id: string; nextAttemptAt: number }>,
    leaseUntil: number,
  ): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    return this.write(async (trx) => {
      const taken = new Set<string>();
      for (const row of rows) {
        const result = await trx
          .updateTable('webhookDeliveries')
          .set({ nextAttemptAt: leaseUntil })
          .where('id', '=', row.id)
          .where('state', '=', 'pending')
          .where('nextAttemptAt', '=', row.nextAttemptAt)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) taken.add(row.id);
      }
      return taken;
    });
  }

  /** Records an attempt's outcome and the endpoint's health in one transaction. */
  async finishAttempt(
    delivery: { id: string; endpointId: string; attempts: number },
    outcome: {
      at: number;
      ok: boolean;
      responseStatus: number | null;
      durationMs: number;
      error: string | null;
      /** Next attempt time; null: no more attempts. */
      nextAttemptAt: number | null;
      /** The endpoint has failed for too long: disable it with this reason. */
      disable?: string;
      /** With `disable`: the e-mail to the owners, written only if this call disabled it. */
      mailOwners?: OwnerMail;
    },
  ): Promise<{ disabled: boolean; mailed: number }> {
    return this.write(async (trx) => {
      await trx
        .updateTable('webhookDeliveries')
        .set({
          state: outcome.ok ? 'succeeded' : outcome.nextAttemptAt === null ? 'failed' : 'pending',
          attempts: delivery.attempts + 1,
          nextAttemptAt: outcome.ok ? null : outcome.nextAttemptAt,
          lastAttemptAt: outcome.at,
          responseStatus: outcome.responseStatus,
          durationMs: outcome.durationMs,
          error: outcome.error,
        })
        .where('id', '=', delivery.id)
        .execute();
      if (outcome.ok) {
        await trx
          .updateTable('webhookEndpoints')
          .set({ failingSince: null })
          .where('id', '=', delivery.endpointId)
          .where('failingSince', 'is not', null)
          .execute();
      } else {
        await trx
          .updateTable('webhookEndpoints')
          .set({ failingSince: outcome.at })
          .where('id', '=', delivery.endpointId)
          .where('failingSince', 'is', null)
          .execute();
        if (outcome.disable) {
          // Only an enabled endpoint: two attempts (or instances) disabling it mail once.
          const disabled = await trx
            .updateTable('webhookEndpoints')
            .set({ enabled: 0, disabledReason: outcome.disable, updatedAt: outcome.at })
            .where('id', '=', delivery.endpointId)
            .where('enabled', '=', 1)
            .returning('organizationId')
            .executeTakeFirst();
          if (disabled) {
            const mailed = outcome.mailOwners
              ? await this.mailOwnersIn(
                  trx,
                  disabled.organizationId,
                  outcome.mailOwners,
                  outcome.at,
                )
              : 0;
            return { disabled: true, mailed };
          }
        }
      }
      return { disabled: false, mailed: 0 };
    });
  }

  async endpointHealth(
    endpointId: string,
  ): Promise<
    { organizationId: string; failingSince: number | null; enabled: boolean } | undefined
  > {
    const row = await this.read
      .selectFrom('webhookEndpoints')
      .select(['organizationId', 'failingSince', 'enabled'])
      .where('id', '=', endpointId)
      .executeTakeFirst();
    return row ? { ...row, enabled: row.enabled === 1 } : undefined;
  }

  /** Puts a delivery back in the queue now, with the same event id and body. */
  async requeue(organizationId: string, id: string, now: number): Promise<boolean> {
    const result = await this.write((trx) =>
      trx
        .updateTable('webhookDeliveries')
        .set({ state: 'pending', nextAttemptAt: now, attempts: 0 })
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
    );
    return Number(result.numUpdatedRows) === 1;
  }

  /** The e-mail addresses of the organization's owners (who are told of a disabled endpoint). */
  ownerEmails(organizationId: string): Promise<string[]> {
    return ownerEmailsOf(this.read, organizationId);
  }

  /**
   * Writes `mail` to every owner of the organization into the mail outbox, in `trx`: the owners
   * are those of the moment the change commits. Returns how many e-mails were written.
   */
  private async mailOwnersIn(
    trx: Transaction<Database>,
    organizationId: string,
    mail: OwnerMail,
    now: number,
  ): Promise<number> {
    const owners = await ownerEmailsOf(trx, organizationId);
    return this.mail.enqueueIn(
      trx,
      owners.map((to) => ({ organizationId, to, subject: mail.subject, text: mail.text })),
      now,
    );
  }

  // Alerts ----------------------------------------------------------------------------------

  async createRule(row: AlertRulesTable, maxPerOrganization: number): Promise<boolean> {
    return this.write(async (trx) => {
      const { count } = await trx
        .selectFrom('alertRules')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('organizationId', '=', row.organizationId)
        .executeTakeFirstOrThrow();
      if (Number(count) >= maxPerOrganization) return false;
      await trx.insertInto('alertRules').values(row).execute();
      return true;
    });
  }

  async rules(organizationId: string, kinds?: string[]): Promise<AlertRulesTable[]> {
    let q = this.read
      .selectFrom('alertRules')
      .selectAll()
      .where('organizationId', '=', organizationId);
    if (kinds) q = q.where('kind', 'in', kinds);
    return q.orderBy('createdAt').orderBy('id').execute();
  }

  /** The organizations that have a rule of `kind` (the alert timer's start, across organizations). */
  async organizationsWithRules(kind: string): Promise<string[]> {
    const rows = await this.read
      .selectFrom('alertRules')
      .select('organizationId')
      .distinct()
      .where('kind', '=', kind)
      .execute();
    return rows.map((r) => r.organizationId);
  }

  async deleteRule(organizationId: string, id: string): Promise<boolean> {
    return this.write(async (trx) => {
      await trx
        .deleteFrom('alerts')
        .where('ruleId', '=', id)
        .where('organizationId', '=', organizationId)
        .execute();
      const r = await trx
        .deleteFrom('alertRules')
        .where('organizationId', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    });
  }

  /**
   * Opens an alert unless one is open for (rule, subject); returns the new alert or null. The
   * unique index on open alerts decides between instances opening it at the same moment. With
   * `announce`, its alert.opened event is written in the same transaction; with `mail`, the
   * owners' e-mail (to the owners of that moment) too.
   */
  async openAlert(
    row: AlertsTable,
    announce: boolean,
    mail?: AlertMail,
  ): Promise<AlertsTable | null> {
    return this.write(async (trx) => {
      const result = await trx
        .insertInto('alerts')
        .values(row)
        .onConflict((oc) =>
          // The predicate of the partial index, as a literal so that the index is inferred.
          oc
            .columns(['ruleId', 'subjectId'])
            .where(sql.ref('state'), '=', sql.lit('open'))
            .doNothing(),
        )
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) return null;
      if (announce) await this.outbox.recordAlert(trx, 'alert.opened', row, row.openedAt);
      if (mail) await this.mailOwnersIn(trx, row.organizationId, mail(row), row.openedAt);
      return row;
    });
  }

  /**
   * Resolves the open alert of (rule, subject); returns it, or null when none was open (or
   * another instance resolved it first). With `announce`, its alert.resolved event is written in
   * the same transaction; with `mail`, the owners' e-mail too.
   */
  async resolveAlert(
    ruleId: string,
    subjectId: string,
    now: number,
    announce: boolean,
    mail?: AlertMail,
  ): Promise<AlertsTable | null> {
    return this.write(async (trx) => {
      const open = await trx
        .selectFrom('alerts')
        .selectAll()
        .where('ruleId', '=', ruleId)
        .where('subjectId', '=', subjectId)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (!open) return null;
      const updated = await trx
        .updateTable('alerts')
        .set({ state: 'resolved', resolvedAt: now })
        .where('id', '=', open.id)
        .where('state', '=', 'open')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return null;
      const resolved = { ...open, state: 'resolved', resolvedAt: now };
      if (announce) await this.outbox.recordAlert(trx, 'alert.resolved', resolved, now);
      if (mail) await this.mailOwnersIn(trx, resolved.organizationId, mail(resolved), now);
      return resolved;
    });
  }

  async listAlerts(organizationId: string, limit: number): Promise<AlertsTable[]> {
    return this.read
      .selectFrom('alerts')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .orderBy('openedAt', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Live jobs finished (printed or failed) since `since`: how many, how many failed, and when the
   * oldest of them finished (null: none did).
   */
  async finishedJobs(
    organizationId: string,
    since: number,
  ): Promise<{ total: number; failed: number; oldestFinishedAt: number | null }> {
    const rows = await this.read
      .selectFrom('jobs')
      .select([
        'state',
        (eb) => eb.fn.countAll<number>().as('count'),
        (eb) => eb.fn.min<number>('finishedAt').as('oldest'),
      ])
      .where('organizationId', '=', organizationId)
      .where('mode', '=', 'live')
      .where('state', 'in', ['printed', 'failed'])
      .where('finishedAt', '>=', since)
      .groupBy('state')
      .execute();
    let total = 0;
    let failed = 0;
    let oldestFinishedAt: number | null = null;
    for (const r of rows) {
      total += Number(r.count);
      if (r.state === 'failed') failed += Number(r.count);
      const oldest = Number(r.oldest);
      if (oldestFinishedAt === null || oldest < oldestFinishedAt) oldestFinishedAt = oldest;
    }
    return { total, failed, oldestFinishedAt };
  }
}
