/**
 * A simulated Epson Server Direct Print printer (TM-m30III, TM-T88VII), written from Epson's
 * documents, not from our server: the SDP User's Manual (GetRequest, PrintRequestInfo,
 * SetResponse with PrintResponseInfo, SetStatus) and the ePOS-Print XML reference (the facts and
 * their sources are in ../shared/research/printer-pull-protocols.md, §2.4-2.11 and §2.15).
 *
 * - Every request is a POST, `application/x-www-form-urlencoded`: `ConnectionType=GetRequest&ID=`.
 * - An answer with a body is a `<PrintRequestInfo>`: each `<ePOSPrint>` has
 *   `Parameter/devid` (its own `local_printer`), `timeout` (ms), `printjobid` (Version 2.00) and
 *   `PrintData/epos-print` in the ePOS-Print namespace; it prints those and posts a SetResponse
 *   (`PrintResponseInfo`) echoing each printjobid. An empty body means nothing to print.
 * - `SetStatus` notifications carry `asbstatus` in hex.
 */

export const EPOS_NS = 'http://www.epson-pos.com/schemas/2011/03/epos-print';

/** Epson status bits (decimal in `<response status>`, hex in `asbstatus`). */
export const EPSON_STATUS = {
  /** success 0x2 + drawer 0x4 + 0x10 + the fixed high byte: what a good print reports. */
  printed: 251658262,
  paperEnd: 0x0f000000 | 0x0008_0000 | 0x8 | 0x10,
  coverOpen: 0x0f00003c,
} as const;

export interface ParsedPrintRequest {
  version: string | null;
  jobs: Array<{
    devid: string;
    timeout: number;
    printjobid: string | null;
    /** The `<epos-print>` element as sent. */
    eposPrint: string;
  }>;
}

/** Reads a PrintRequestInfo as the printer does; throws on what it would discard. */
export function parsePrintRequest(xml: string): ParsedPrintRequest {
  if (/<(?:\w+:)?Envelope\b/.test(xml)) throw new Error('a SOAP envelope: the printer discards it');
  const root = /<PrintRequestInfo\b([^>]*)>/.exec(xml);
  if (!root) throw new Error('no PrintRequestInfo root');
  const version = /Version="([^"]*)"/.exec(root[1]!)?.[1] ?? null;
  const jobs = [...xml.matchAll(/<ePOSPrint>([\s\S]*?)<\/ePOSPrint>/g)].map((m) => {
    const block = m[1]!;
    const devid = /<devid>([^<]*)<\/devid>/.exec(block)?.[1] ?? '';
    const timeout = Number(/<timeout>([^<]*)<\/timeout>/.exec(block)?.[1] ?? 'NaN');
    const printjobid = /<printjobid>([^<]*)<\/printjobid>/.exec(block)?.[1] ?? null;
    const eposPrint = /<PrintData>([\s\S]*)<\/PrintData>/.exec(block)?.[1]?.trim() ?? '';
    return { devid, timeout, printjobid, eposPrint };
  });
  if (jobs.length === 0) throw new Error('no ePOSPrint element');
  return { version, jobs };
}

/** Checks an `<epos-print>` element as the print engine reads it; returns its images. */
export function checkEposPrint(
  epos: string,
): Array<{ width: number; height: number; bytes: Buffer }> {
  if (!epos.startsWith(`<epos-print xmlns="${EPOS_NS}"`)) {
    throw new Error('the root is not epos-print in the ePOS-Print namespace');
  }
  if (/xmlns=""/.test(epos)) throw new Error('a child element with xmlns="": nothing would print');
  const images = [...epos.matchAll(/<image\b([^>]*)>([^<]*)<\/image>/g)].map((m) => {
    const width = Number(/width="(\d+)"/.exec(m[1]!)?.[1]);
    const height = Number(/height="(\d+)"/.exec(m[1]!)?.[1]);
    const bytes = Buffer.from(m[2]!, 'base64');
    if (bytes.length !== Math.ceil(width / 8) * height) {
      throw new Error(`image data is ${bytes.length} bytes, not ceil(${width}/8)*${height}`);
    }
    return { width, height, bytes };
  });
  return images;
}

export interface SdpAnswer {
  status: number;
  headers: Headers;
  body: string;
}

export class SimulatedSdp {
  /** What came out on paper: one `<epos-print>` per job printed. */
  readonly paper: string[] = [];
  /** `2.00` echoes printjobid; `1.00` (old firmware) does not. */
  readonly responseVersion: '1.00' | '2.00';

  constructor(
    readonly url: string,
    options: { id?: string; responseVersion?: '1.00' | '2.00' } = {},
  ) {
    this.id = options.id ?? '';
    this.responseVersion = options.responseVersion ?? '2.00';
  }

  private readonly id: string;

  async send(fields: Record<string, string>): Promise<SdpAnswer> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, ID: this.id }).toString(),
      redirect: 'manual',
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  getRequest(): Promise<SdpAnswer> {
    return this.send({ ConnectionType: 'GetRequest' });
  }

  /** The result of the jobs of a print request (each `success`, `code`, `status`). */
  responseFile(
    results: Array<{ printjobid: string | null; success: boolean; code?: string; status: number }>,
  ): string {
    const response = (r: (typeof results)[number]) =>
      `<response xmlns="${EPOS_NS}" success="${r.success}" code="${r.code ?? ''}" status="${r.status}" battery="0"/>`;
    if (this.responseVersion === '1.00') {
      return `<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="1.00">${results.map(response).join('')}</PrintResponseInfo>`;
    }
    return (
      '<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="2.00">' +
      results
        .map(
          (r) =>
            `<ePOSPrint><Parameter><devid>local_printer</devid><printjobid>${r.printjobid ?? ''}</printjobid></Parameter><PrintResponse>${response(r)}</PrintResponse></ePOSPrint>`,
        )
        .join('') +
      '</PrintResponseInfo>'
    );
  }

  setResponse(xml: string): Promise<SdpAnswer> {
    return this.send({ ConnectionType: 'SetResponse', ResponseFile: xml });
  }

  setStatus(asbstatus: number, devicename = 'local_printer'): Promise<SdpAnswer> {
    const hex = `0x${asbstatus.toString(16).toUpperCase().padStart(8, '0')}`;
    return this.send({
      ConnectionType: 'SetStatus',
      Status: `<?xml version="1.0" encoding="utf-8"?><statusmonitor Version="1.00"><printerstatus devicename="${devicename}" asbstatus="${hex}"/></statusmonitor>`,
    });
  }

  /**
   * One whole cycle: GetRequest; if it carries jobs, print them and send the result (an idle
   * `<PrintResponseInfo Version="1.00"/>` after an empty answer, as a TM-m30III does).
   */
  async cycle(
    outcome: { success: boolean; code?: string; status?: number } = { success: true },
  ): Promise<{ answer: SdpAnswer; request?: ParsedPrintRequest }> {
    const answer = await this.getRequest();
    if (answer.status !== 200 || answer.body === '') {
      if (answer.status === 200) {
        await this.setResponse(
          '<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="1.00"/>',
        );
      }
      return { answer };
    }
    const request = parsePrintRequest(answer.body);
    for (const job of request.jobs) {
      checkEposPrint(job.eposPrint);
      if (outcome.success) this.paper.push(job.eposPrint);
    }
    await this.setResponse(
      this.responseFile(
        request.jobs.map((j) => ({
          printjobid: j.printjobid,
          success: outcome.success,
          code: outcome.code ?? '',
          status: outcome.status ?? EPSON_STATUS.printed,
        })),
      ),
    );
    return { answer, request };
  }
}
