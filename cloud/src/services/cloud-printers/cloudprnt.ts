/**
 * Star CloudPRNT (HTTP flavour), the server's side, from Star's CloudPRNT Protocol Guide 2.4 and
 * Developer Guide 1.4 (../shared/research/printer-pull-protocols.md, Part 1):
 *
 * - POST (the poll): JSON `{ statusCode, status, printerMAC, jobToken?, printingInProgress?,
 *   clientAction? }`. The answer is `{ jobReady: false }`, or `{ jobReady: true, mediaTypes,
 *   jobToken, deleteMethod }`, or once per printer `{ jobReady: false, clientAction: [ClientType,
 *   Encodings] }` (what it is and which media types it takes).
 * - GET `?type=&token=&mac=` (or with `delete`: a confirmation): the job in the media type
 *   asked for, the same bytes however often; 404 no job, 415 a type we do not offer.
 * - DELETE `?code=&token=&mac=`: 2xx printed; 4xx/5xx failed PRINTER_ERROR with the code in
 *   words. Repeated, late or foreign confirmations change nothing.
 */
import type { Logger } from 'pino';
import type { PolledPrinter } from '../../storage/cloud-printers.js';
import { CLOUDPRNT_MEDIA_TYPES, cloudPrntOutput, type CloudPrntMediaType } from './job-output.js';
import type { CloudPrinterService } from './service.js';
import { decodeStarCode, starCodeInWords, starStatus } from './status.js';

/** What the HTTP layer sends back. */
export interface PullReply {
  status: number;
  contentType?: string;
  body: Buffer | string | Record<string, unknown>;
}

const NOT_FOUND: PullReply = {
  status: 404,
  contentType: 'application/json',
  body: { error: 'no printer has this address (it was removed, or the address is mistyped)' },
};

interface ClientActionResult {
  request?: unknown;
  result?: unknown;
}

export class CloudPrntEndpoint {
  /** Printers asked for ClientType and Encodings by this instance (asked once, not at each poll). */
  private readonly asked = new Set<string>();

  constructor(
    private readonly service: CloudPrinterService,
    private readonly logger: Logger,
  ) {}

  /** The media types offered to this printer, best first, within what it said it takes. */
  mediaTypesFor(polled: PolledPrinter): CloudPrntMediaType[] {
    const said = polled.cloud.encodings;
    if (!said) return [...CLOUDPRNT_MEDIA_TYPES];
    const takes = said
      .split(/[;,]/)
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean);
    const offered = CLOUDPRNT_MEDIA_TYPES.filter((t) => takes.includes(t));
    return offered.length > 0 ? offered : [...CLOUDPRNT_MEDIA_TYPES];
  }

  async poll(secret: string, body: unknown): Promise<PullReply> {
    const polled = await this.service.authenticate('cloudprnt', secret);
    if (!polled) return NOT_FOUND;
    const poll = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    await this.service.heard(polled);
    const status = starStatus(poll.statusCode, poll.status);
    await this.service.reported(polled, status);

    const answered = Array.isArray(poll.clientAction)
      ? (poll.clientAction as ClientActionResult[])
      : undefined;
    if (answered) {
      const info: { clientType?: string; encodings?: string } = {};
      for (const a of answered) {
        if (a?.request === 'ClientType') info.clientType = String(a.result ?? '');
        if (a?.request === 'Encodings') info.encodings = String(a.result ?? '');
      }
      if (info.encodings !== undefined) polled.cloud.encodings = info.encodings;
      await this.service.clientInfo(polled, info);
    } else if (polled.cloud.encodings === null && !this.asked.has(polled.cloud.printerId)) {
      // Once per printer: what it is and which media types it takes (it answers at once).
      this.asked.add(polled.cloud.printerId);
      return json({
        jobReady: false,
        clientAction: [
          { request: 'ClientType', options: '' },
          { request: 'Encodings', options: '' },
        ],
      });
    }

    // While it prints, it ignores jobReady anyway: no second job mid-print.
    if (poll.printingInProgress === true) return json({ jobReady: false });
    const handover = await this.service.offer(polled, {
      again: true,
      claim: status === 'online',
    });
    if (!handover) return json({ jobReady: false });
    return json({
      jobReady: true,
      mediaTypes: this.mediaTypesFor(polled),
      jobToken: handover.token,
      deleteMethod: 'DELETE',
    });
  }

  /** GET: the job's bytes (or, with `delete`, a confirmation sent as a GET). */
  async fetch(secret: string, query: Record<string, unknown>): Promise<PullReply> {
    if (query.delete !== undefined) return this.confirm(secret, query);
    const polled = await this.service.authenticate('cloudprnt', secret);
    if (!polled) return NOT_FOUND;
    const token = typeof query.token === 'string' && query.token !== '' ? query.token : null;
    const handover = this.service.currentHandover(polled, token);
    if (!handover) return { status: 404, contentType: 'text/plain', body: 'no job' };
    const offered = this.mediaTypesFor(polled);
    const asked =
      typeof query.type === 'string' && query.type !== ''
        ? query.type.split(';')[0]!.trim().toLowerCase()
        : offered[0]!;
    const type = (CLOUDPRNT_MEDIA_TYPES as readonly string[]).includes(asked)
      ? (asked as CloudPrntMediaType)
      : undefined;
    if (!type) {
      return {
        status: 415,
        contentType: 'text/plain',
        body: `this job is offered as ${offered.join(', ')}`,
      };
    }
    const handed = await this.service.handedJob(handover);
    if (!handed) return { status: 404, contentType: 'text/plain', body: 'no job' };
    try {
      const bytes = cloudPrntOutput(handed.job, handed.content, polled.printer.paper, type);
      return { status: 200, contentType: type, body: bytes };
    } catch (err) {
      this.logger.warn({ err, jobId: handed.job.id }, 'a CloudPRNT job could not be rendered');
      await this.service.renderFailed(polled, handover, err);
      return { status: 404, contentType: 'text/plain', body: 'no job' };
    }
  }

  /** DELETE (or GET with `delete`): the printer's result for its job. */
  async confirm(secret: string, query: Record<string, unknown>): Promise<PullReply> {
    const polled = await this.service.authenticate('cloudprnt', secret);
    if (!polled) return NOT_FOUND;
    const code = decodeStarCode(query.code);
    const token = typeof query.token === 'string' && query.token !== '' ? query.token : null;
    const printed = code.startsWith('2');
    await this.service.confirm(
      polled,
      token,
      printed
        ? { printed: true }
        : { printed: false, errorCode: 'PRINTER_ERROR', errorMessage: starCodeInWords(code) },
    );
    return { status: 200, contentType: 'application/json', body: {} };
  }
}

function json(body: Record<string, unknown>): PullReply {
  return { status: 200, contentType: 'application/json', body };
}
