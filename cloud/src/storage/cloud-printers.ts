/**
 * Printers without a computer (Star CloudPRNT, Epson SDP): each is a device of its own (os
 * `printer`) with one printer, plus a `cloud_printers` row (the secret's hash, the protocol, the
 * last poll) and the hand-overs of its jobs (`cloud_handovers`).
 *
 * At most once on paper: `claim` moves the oldest queued job of the printer to `sending` and
 * records its hand-over in one transaction; the move is conditional on the job still being
 * queued, and the unique index on (printer, open) refuses a second open hand-over, so two polls
 * (on one instance or two) never get the same job, nor two jobs at once. `confirm` closes a
 * hand-over once; a late, repeated or foreign confirmation changes nothing.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { PrintwireError } from '@printwire/shared/errors/index';
import { newId } from '../lib/ids.js';
import { PreparedCache, slot } from './prepared.js';
import type { TransitionInfo, TransitionResult } from './job-states.js';
import type { JobTransitions } from './job-transitions.js';
import type { WriteFn } from './organizations.js';
import { toDevice, toPrinter } from './rows.js';
import type { CloudHandoversTable, CloudPrintersTable, Database } from './schema.js';
import type { Device, JobState, Printer } from './types.js';
import type { WebhookOutbox } from './webhook-outbox.js';

/**
 * What a printer that connects by itself takes (the dashboard's "Can do"): receipts, text and
 * pictures (templates become receipts or text), its status from each poll, cuts and the drawer.
 */
export const CLOUD_PRINTER_CAPABILITIES = ['receipt', 'text', 'image', 'status', 'cut', 'drawer'];

export type CloudProtocol = 'cloudprnt' | 'sdp';

export type CloudPrinterRow = CloudPrintersTable;
export type Handover = CloudHandoversTable;

/** What a poll needs to know of the printer whose secret it carries. */
export interface PolledPrinter {
  cloud: CloudPrinterRow;
  printer: Printer;
  deviceStatus: string;
  /** Its hand-over waiting for a confirmation, when the poll was read. */
  open: Handover | undefined;
  /** Whether a live job waited for it when the poll was read. */
  hasQueued: boolean;
}

type PollRow = Database['printers'] & {
  settings: string;
  cpProtocol: string;
  cpSecretHash: string;
  cpLastPollAt: number | null;
  cpClientType: string | null;
  cpEncodings: string | null;
  cpCreatedAt: number;
  deviceStatus: string;
  hoJobId: string | null;
  hoToken: string | null;
  hoPollId: string | null;
  hoHandedAt: number | null;
  hasQueued: number | boolean;
};

export interface NewCloudPrinter {
  organizationId: string;
  name: string;
  protocol: CloudProtocol;
  paper: '58mm' | '80mm';
  secretHash: string;
}

/** The agent printer id of a cloud printer's one printer. */
export const CLOUD_AGENT_PRINTER_ID = 'printer';

export type Outcome =
  | { printed: true }
  | { printed: false; errorCode: 'PRINTER_ERROR' | 'RENDER_FAILED'; errorMessage: string };

export class CloudPrintersRepository {
  private readonly prepared = new PreparedCache();

  constructor(
    private readonly read: Kysely<Database>,
    private readonly write: WriteFn,
    private readonly transitions: JobTransitions,
    private readonly outbox?: WebhookOutbox,
  ) {}

  /** Creates the device, its printer and the cloud printer row in one transaction. */
  async create(
    input: NewCloudPrinter,
    now: number,
  ): Promise<{ device: Device; printer: Printer; cloud: CloudPrinterRow }> {
    return this.write(async (trx) => {
      const deviceRow = {
        id: newId('dev', now),
        organizationId: input.organizationId,
        name: input.name,
        groupId: null,
        os: 'printer',
        arch: input.protocol,
        agentVersion: input.protocol === 'cloudprnt' ? 'CloudPRNT' : 'Server Direct Print',
        status: 'offline',
        activated: 1,
        sandbox: 0,
        tokenHash: null,
        lastSeenAt: null,
        createdAt: now,
      };
      await trx.insertInto('devices').values(deviceRow).execute();
      const printerRow = {
        id: newId('prn', now),
        organizationId: input.organizationId,
        deviceId: deviceRow.id,
        agentPrinterId: CLOUD_AGENT_PRINTER_ID,
        name: input.name,
        alias: null,
        connection: input.protocol,
        kind: 'receipt',
        paper: input.paper,
        codepage: null,
        profile: null,
        capabilities: JSON.stringify(CLOUD_PRINTER_CAPABILITIES),
        isDefault: 0,
        status: 'offline',
        sandbox: 0,
        lastStatusAt: now,
        createdAt: now,
        settings: '{}',
      };
      await trx.insertInto('printers').values(printerRow).execute();
      const cloud: CloudPrinterRow = {
        printerId: printerRow.id,
        organizationId: input.organizationId,
        deviceId: deviceRow.id,
        protocol: input.protocol,
        secretHash: input.secretHash,
        lastPollAt: null,
        clientType: null,
        encodings: null,
        createdAt: now,
      };
      await trx.insertInto('cloudPrinters').values(cloud).execute();
      const device = toDevice(deviceRow);
      await this.outbox?.recordDevice(trx, 'device.activated', device, now);
      return { device, printer: toPrinter(printerRow), cloud };
    });
  }

  /** The organization's cloud printer with this printer id. */
  async get(organizationId: string, printerId: string): Promise<CloudPrinterRow | undefined> {
    return this.read
      .selectFrom('cloudPrinters')
      .selectAll()
      .where('organizationId', '=', organizationId)
      .where('printerId', '=', printerId)
      .executeTakeFirst();
  }

  /**
   * Removes the printer's device (with its printer, cloud row and so its secret); the device
   * as it was, or undefined when there was no such cloud printer.
   */
  async remove(organizationId: string, printerId: string): Promise<Device | undefined> {
    return this.write(async (trx) => {
      const cloud = await trx
        .selectFrom('cloudPrinters')
        .select('deviceId')
        .where('organizationId', '=', organizationId)
        .where('printerId', '=', printerId)
        .executeTakeFirst();
      if (!cloud) return undefined;
      const device = await trx
        .selectFrom('devices')
        .selectAll()
        .where('id', '=', cloud.deviceId)
        .executeTakeFirst();
      await trx.deleteFrom('cloudPrinters').where('printerId', '=', printerId).execute();
      await trx.deleteFrom('printers').where('id', '=', printerId).execute();
      await trx.deleteFrom('devices').where('id', '=', cloud.deviceId).execute();
      return device ? toDevice(device) : undefined;
    });
  }

  /**
   * The printer a poll's secret names (by its hash), or undefined; with its device's status, its
   * unconfirmed hand-over and whether a live job waits for it: everything a poll reads, in one
   * prepared query (the poll path is the busiest of such a printer's).
   */
  async findBySecretHash(secretHash: string): Promise<PolledPrinter | undefined> {
    const query = this.prepared.get('cloudPrinters.poll', () =>
      this.read
        .selectFrom('cloudPrinters')
        .innerJoin('printers', 'printers.id', 'cloudPrinters.printerId')
        .innerJoin('devices', 'devices.id', 'cloudPrinters.deviceId')
        .leftJoin('cloudHandovers', (join) =>
          join
            .onRef('cloudHandovers.printerId', '=', 'cloudPrinters.printerId')
            .on('cloudHandovers.open', '=', 1),
        )
        .selectAll('printers')
        .select((eb) => [
          'cloudPrinters.protocol as cpProtocol',
          'cloudPrinters.secretHash as cpSecretHash',
          'cloudPrinters.lastPollAt as cpLastPollAt',
          'cloudPrinters.clientType as cpClientType',
          'cloudPrinters.encodings as cpEncodings',
          'cloudPrinters.createdAt as cpCreatedAt',
          'devices.status as deviceStatus',
          'cloudHandovers.jobId as hoJobId',
          'cloudHandovers.token as hoToken',
          'cloudHandovers.pollId as hoPollId',
          'cloudHandovers.handedAt as hoHandedAt',
          eb
            .exists(
              eb
                .selectFrom('jobs')
                .select('jobs.id')
                .whereRef('jobs.deviceId', '=', 'cloudPrinters.deviceId')
                .where('jobs.state', '=', sql.lit('queued'))
                .where('jobs.mode', '=', sql.lit('live')),
            )
            .as('hasQueued'),
        ])
        .where('cloudPrinters.secretHash', '=', slot('secretHash'))
        // A device deactivated in the dashboard is refused, as an agent's revoked token is.
        .where('devices.activated', '=', 1),
    );
    const [row] = await query.execute<PollRow>(this.read, { secretHash });
    if (!row) return undefined;
    const {
      cpProtocol,
      cpSecretHash,
      cpLastPollAt,
      cpClientType,
      cpEncodings,
      cpCreatedAt,
      deviceStatus,
      hoJobId,
      hoToken,
      hoPollId,
      hoHandedAt,
      hasQueued,
      ...printer
    } = row;
    return {
      cloud: {
        printerId: printer.id,
        organizationId: printer.organizationId,
        deviceId: printer.deviceId,
        protocol: cpProtocol,
        secretHash: cpSecretHash,
        lastPollAt: cpLastPollAt === null ? null : Number(cpLastPollAt),
        clientType: cpClientType,
        encodings: cpEncodings,
        createdAt: Number(cpCreatedAt),
      },
      printer: toPrinter(printer),
      deviceStatus,
      open:
        hoJobId === null || hoToken === null
          ? undefined
          : {
              jobId: hoJobId,
              organizationId: printer.organizationId,
              printerId: printer.id,
              token: hoToken,
              pollId: hoPollId ?? '',
              handedAt: Number(hoHandedAt),
              open: 1,
              confirmedAt: null,
              outcome: null,
            },
      hasQueued: Boolean(Number(hasQueued)),
    };
  }

  /**
   * Records a poll (written at most as often as the service asks): the printer's last poll, and
   * its device's lastSeenAt (what the dashboard shows of both).
   */
  async recordPoll(printer: { printerId: string; deviceId: string }, now: number): Promise<void> {
    await this.write(
      async (trx) => {
        await trx
          .updateTable('cloudPrinters')
          .set({ lastPollAt: now })
          .where('printerId', '=', printer.printerId)
          .execute();
        await trx
          .updateTable('devices')
          .set({ lastSeenAt: now })
          .where('id', '=', printer.deviceId)
          .execute();
      },
      { durable: false },
    );
  }

  /** What a CloudPRNT printer said it is (ClientType, Encodings). */
  async setClientInfo(
    printerId: string,
    info: { clientType?: string | null; encodings?: string | null },
  ): Promise<void> {
    const values: { clientType?: string | null; encodings?: string | null } = {};
    if (info.clientType !== undefined) values.clientType = info.clientType;
    if (info.encodings !== undefined) values.encodings = info.encodings;
    if (Object.keys(values).length === 0) return;
    await this.write(async (trx) => {
      await trx
        .updateTable('cloudPrinters')
        .set(values)
        .where('printerId', '=', printerId)
        .execute();
    });
  }

  /** The printer's hand-over waiting for its confirmation, if any. */
  async openHandover(printerId: string): Promise<Handover | undefined> {
    const row = await this.read
      .selectFrom('cloudHandovers')
      .selectAll()
      .where('printerId', '=', printerId)
      .where('open', '=', 1)
      .executeTakeFirst();
    return row ? toHandover(row) : undefined;
  }

  /** Whether the device has a live job waiting (the cheap check of a poll). */
  async hasQueued(organizationId: string, deviceId: string): Promise<boolean> {
    const row = await this.read
      .selectFrom('jobs')
      .select('id')
      .where('deviceId', '=', deviceId)
      .where('state', '=', sql.lit('queued'))
      .where('organizationId', '=', organizationId)
      .where('mode', '=', 'live')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Hands the printer's oldest queued live job to this poll: queued → sending and its hand-over,
   * in one transaction. Undefined when there is nothing to hand over, or when the printer
   * already holds an open hand-over. Throws a unique violation when another poll's claim of the
   * same printer committed first (the caller reads the open hand-over then).
   */
  async claim(
    printer: { organizationId: string; deviceId: string; printerId: string },
    poll: { pollId: string; token: string },
    now: number,
  ): Promise<{ handover: Handover; transition: TransitionResult } | undefined> {
    return this.write(async (trx) => {
      const open = await trx
        .selectFrom('cloudHandovers')
        .select('jobId')
        .where('printerId', '=', printer.printerId)
        .where('open', '=', 1)
        .executeTakeFirst();
      if (open) return undefined;
      const candidates = await trx
        .selectFrom('jobs')
        .select('id')
        .where('deviceId', '=', printer.deviceId)
        .where('state', '=', sql.lit('queued'))
        .where('organizationId', '=', printer.organizationId)
        .where('mode', '=', 'live')
        .orderBy('createdAt')
        .orderBy('id')
        .limit(5)
        .execute();
      for (const { id } of candidates) {
        const transition = await this.tryTransition(
          trx,
          printer.organizationId,
          id,
          'sending',
          {},
          now,
        );
        if (!transition) continue; // taken, cancelled or expired meanwhile: the next one
        const handover: Handover = {
          jobId: id,
          organizationId: printer.organizationId,
          printerId: printer.printerId,
          token: poll.token,
          pollId: poll.pollId,
          handedAt: now,
          open: 1,
          confirmedAt: null,
          outcome: null,
        };
        await trx.insertInto('cloudHandovers').values(handover).execute();
        return { handover, transition };
      }
      return undefined;
    });
  }

  /**
   * Moves the live job to `to`; undefined, and the job left as it is, when it may not (taken,
   * cancelled, expired or finished meanwhile).
   */
  private async tryTransition(
    trx: Transaction<Database>,
    organizationId: string,
    jobId: string,
    to: JobState,
    info: TransitionInfo,
    now: number,
  ): Promise<TransitionResult | undefined> {
    try {
      return await this.transitions.transitionIn(trx, organizationId, 'live', jobId, to, info, now);
    } catch (error) {
      if (error instanceof PrintwireError) return undefined;
      throw error;
    }
  }

  /** Closes the job's open hand-over with `values`; false when it was closed already. */
  private async closeHandover(
    trx: Transaction<Database>,
    jobId: string,
    values: Pick<Handover, 'outcome'> & Partial<Pick<Handover, 'confirmedAt'>>,
  ): Promise<boolean> {
    const closed = await trx
      .updateTable('cloudHandovers')
      .set({ open: null, ...values })
      .where('jobId', '=', jobId)
      .where('open', '=', 1)
      .executeTakeFirst();
    return Number(closed.numUpdatedRows) > 0;
  }

  /**
   * The printer's confirmation of a hand-over (by its token; null: the open one, for firmware
   * that sends none). Closes it and moves the job to printed or failed. Undefined, and nothing
   * changed, when the token is not the printer's, the hand-over is closed already, or the job
   * finished meanwhile (failed UNCONFIRMED, cancelled).
   */
  async confirm(
    printerId: string,
    token: string | null,
    outcome: Outcome,
    now: number,
  ): Promise<TransitionResult | undefined> {
    return this.write(async (trx) => {
      let q = trx
        .selectFrom('cloudHandovers')
        .selectAll()
        .where('printerId', '=', printerId)
        .where('open', '=', 1);
      if (token !== null) q = q.where('token', '=', token);
      const row = await q.executeTakeFirst();
      if (!row) return undefined;
      const to = outcome.printed ? 'printed' : 'failed';
      if (!(await this.closeHandover(trx, row.jobId, { confirmedAt: now, outcome: to }))) {
        return undefined;
      }
      // The job finished otherwise meanwhile: the hand-over is closed, the job left as it is.
      return this.tryTransition(
        trx,
        row.organizationId,
        row.jobId,
        to,
        outcome.printed ? {} : { errorCode: outcome.errorCode, errorMessage: outcome.errorMessage },
        now,
      );
    });
  }

  /**
   * Fails every job handed over at or before `handedBefore` and never confirmed (errorCode
   * UNCONFIRMED, not retryable), closing its hand-over: it is never handed over again.
   */
  async failUnconfirmed(handedBefore: number, now: number): Promise<TransitionResult[]> {
    const due = await this.read
      .selectFrom('cloudHandovers')
      .select(['jobId', 'organizationId'])
      .where('open', '=', 1)
      .where('handedAt', '<=', handedBefore)
      .limit(500)
      .execute();
    const results: TransitionResult[] = [];
    for (const row of due) {
      const result = await this.write(async (trx) => {
        if (!(await this.closeHandover(trx, row.jobId, { outcome: 'unconfirmed' }))) {
          return undefined;
        }
        return this.tryTransition(
          trx,
          row.organizationId,
          row.jobId,
          'failed',
          {
            errorCode: 'UNCONFIRMED',
            errorMessage:
              'the printer took the job but never said whether it printed: it is not sent again (reprint it if it did not print)',
          },
          now,
        );
      });
      if (result) results.push(result);
    }
    return results;
  }

  /** Online cloud-printer devices whose last poll is older than `polledBefore`. */
  async silent(polledBefore: number): Promise<Array<{ organizationId: string; deviceId: string }>> {
    return this.read
      .selectFrom('cloudPrinters')
      .innerJoin('devices', 'devices.id', 'cloudPrinters.deviceId')
      .select(['cloudPrinters.organizationId as organizationId', 'devices.id as deviceId'])
      .where('devices.status', '=', 'online')
      .where((eb) =>
        eb.or([
          eb('cloudPrinters.lastPollAt', 'is', null),
          eb('cloudPrinters.lastPollAt', '<', polledBefore),
        ]),
      )
      .limit(1000)
      .execute();
  }
}

function toHandover(row: Handover): Handover {
  return {
    ...row,
    handedAt: Number(row.handedAt),
    confirmedAt: row.confirmedAt === null ? null : Number(row.confirmedAt),
  };
}
