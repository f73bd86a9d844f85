/**
 * Epson Server Direct Print, the server's side, from Epson's SDP User's Manual and ePOS-Print
 * XML reference (../shared/research/printer-pull-protocols.md, Part 2). Every request is a POST
 * of `application/x-www-form-urlencoded`:
 *
 * - `ConnectionType=GetRequest`: the answer carries the job, `<PrintRequestInfo Version="2.00">`
 *   with one `<ePOSPrint>` (devid local_printer, timeout in ms, printjobid = the hand-over's
 *   token) holding the `<epos-print>` element; or, with nothing to print, 200 with an empty
 *   body. A job is in one answer only (it is never sent again: the answer IS the job).
 * - `ConnectionType=SetResponse&ResponseFile=<PrintResponseInfo…>`: each `<response success
 *   code status>` for its printjobid (Version 1.00 has none: the printer's open hand-over) makes
 *   the job printed or failed PRINTER_ERROR (the code in words); its status bits are the
 *   printer's status. A SetResponse without `<response` (sent after every poll by some models)
 *   changes nothing.
 * - `ConnectionType=SetStatus&Status=<statusmonitor…>`: `asbstatus` of local_printer.
 *
 * Answers are `text/xml; charset=utf-8`. A wrong secret is 404 (not the empty 200 other servers
 * answer: the printer's own status page then shows the error).
 */
import type { Logger } from 'pino';
import type { PolledPrinter } from '../../storage/cloud-printers.js';
import type { PullReply } from './cloudprnt.js';
import { eposXmlOutput } from './job-output.js';
import type { CloudPrinterService } from './service.js';
import { epsonCodeInWords, epsonStatus, parseEpsonStatus } from './status.js';

const XML = 'text/xml; charset=utf-8';
const EMPTY: PullReply = { status: 200, contentType: XML, body: '' };
const NOT_FOUND: PullReply = {
  status: 404,
  contentType: XML,
  body: '<?xml version="1.0" encoding="utf-8"?><Error>no printer has this address</Error>',
};

/** How long the printer waits for its print engine (ms). */
const PRINT_TIMEOUT_MS = 60_000;

/** The attributes of one XML start tag's text (`a="1" b='2'`), entities decoded. */
function attributes(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of text.matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    out[m[1]!] = decodeEntities(m[3] ?? m[4] ?? '');
  }
  return out;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16)))
    .replace(/&amp;/g, '&');
}

/** One result of a SetResponse. */
export interface SdpResult {
  /** The printjobid; null in a Version 1.00 answer. */
  jobId: string | null;
  success: boolean;
  code: string;
  status: number | undefined;
}

/** The results a `ResponseFile` carries (none for an idle one), and a transport error if any. */
export function parseResponseFile(xml: string): { results: SdpResult[]; transportError?: string } {
  const results: SdpResult[] = [];
  const blocks = [...xml.matchAll(/<(?:\w+:)?ePOSPrint\b[\s\S]*?<\/(?:\w+:)?ePOSPrint>/g)].map(
    (m) => m[0],
  );
  const read = (text: string, jobId: string | null) => {
    const tag = /<(?:\w+:)?response\b([^>]*?)\/?>/.exec(text);
    if (!tag) return;
    const a = attributes(tag[1]!);
    results.push({
      jobId,
      success: a.success === 'true' || a.success === '1',
      code: a.code ?? '',
      status: parseEpsonStatus(a.status),
    });
  };
  if (blocks.length > 0) {
    for (const block of blocks) {
      const id = /<(?:\w+:)?printjobid>\s*([^<]*?)\s*<\/(?:\w+:)?printjobid>/.exec(block)?.[1];
      read(block, id ? decodeEntities(id) : null);
    }
  } else {
    read(xml, null);
  }
  const transport = /<(?:\w+:)?Response\b([^>]*?)\/?>/.exec(xml);
  if (transport && attributes(transport[1]!).Success === 'false' && results.length === 0) {
    const summary = /<(?:\w+:)?ErrorSummary>([^<]*)</.exec(xml)?.[1] ?? 'the request was refused';
    const detail = /<(?:\w+:)?ErrorDetail>([^<]*)</.exec(xml)?.[1];
    return {
      results,
      transportError: decodeEntities(detail ? `${summary}: ${detail}` : summary),
    };
  }
  return { results };
}

/** The `asbstatus` of local_printer (or of the only printer) in a SetStatus notification. */
export function parseStatusNotification(xml: string): number | undefined {
  const printers = [...xml.matchAll(/<(?:\w+:)?printerstatus\b([^>]*?)\/?>/g)].map((m) =>
    attributes(m[1]!),
  );
  const local = printers.find((p) => p.devicename === 'local_printer') ?? printers[0];
  return local ? parseEpsonStatus(local.asbstatus) : undefined;
}

/** The GetRequest answer carrying one job. */
export function printRequestInfo(printjobid: string, eposPrint: string): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>' +
    '<PrintRequestInfo Version="2.00"><ePOSPrint><Parameter>' +
    `<devid>local_printer</devid><timeout>${PRINT_TIMEOUT_MS}</timeout>` +
    `<printjobid>${printjobid}</printjobid>` +
    `</Parameter><PrintData>${eposPrint}</PrintData></ePOSPrint></PrintRequestInfo>`
  );
}

export class SdpEndpoint {
  constructor(
    private readonly service: CloudPrinterService,
    private readonly logger: Logger,
  ) {}

  async handle(secret: string, form: Record<string, unknown>): Promise<PullReply> {
    const polled = await this.service.authenticate('sdp', secret);
    if (!polled) return NOT_FOUND;
    await this.service.heard(polled);
    const text = (key: string) => (typeof form[key] === 'string' ? (form[key] as string) : '');
    switch (text('ConnectionType')) {
      case 'GetRequest':
        return this.getRequest(polled);
      case 'SetResponse':
        await this.setResponse(polled, text('ResponseFile'));
        return EMPTY;
      case 'SetStatus': {
        const bits = parseStatusNotification(text('Status'));
        if (bits !== undefined) await this.service.reported(polled, epsonStatus(bits));
        return EMPTY;
      }
      default:
        return EMPTY;
    }
  }

  private async getRequest(polled: PolledPrinter): Promise<PullReply> {
    // A poll that reports nothing else means online (SDP polls carry no status).
    if (polled.printer.status === 'offline') await this.service.reported(polled, 'online');
    const claimable =
      polled.printer.status !== 'paper_out' && polled.printer.status !== 'cover_open';
    const handover = await this.service.offer(polled, { again: false, claim: claimable });
    if (!handover) return EMPTY;
    const handed = await this.service.handedJob(handover);
    if (!handed) return EMPTY;
    try {
      const epos = eposXmlOutput(handed.job, handed.content, polled.printer.paper).toString('utf8');
      return { status: 200, contentType: XML, body: printRequestInfo(handover.token, epos) };
    } catch (err) {
      this.logger.warn({ err, jobId: handed.job.id }, 'an SDP job could not be rendered');
      await this.service.renderFailed(polled, handover, err);
      return EMPTY;
    }
  }

  private async setResponse(polled: PolledPrinter, xml: string): Promise<void> {
    const { results, transportError } = parseResponseFile(xml);
    if (transportError !== undefined) {
      await this.service.confirm(polled, null, {
        printed: false,
        errorCode: 'PRINTER_ERROR',
        errorMessage: `Epson Server Direct Print: ${transportError}`,
      });
      return;
    }
    for (const r of results) {
      if (r.status !== undefined) await this.service.reported(polled, epsonStatus(r.status));
      await this.service.confirm(
        polled,
        r.jobId,
        r.success
          ? { printed: true }
          : { printed: false, errorCode: 'PRINTER_ERROR', errorMessage: epsonCodeInWords(r.code) },
      );
    }
  }
}
