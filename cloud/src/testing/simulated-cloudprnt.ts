/**
 * A simulated Star CloudPRNT printer (HTTP flavour), written from Star's documents, not from our
 * server: CloudPRNT Protocol Guide 2.4 and Developer Guide 1.4 (the facts and their sources are
 * gathered in ../shared/research/printer-pull-protocols.md, §1.5-1.12 and §1.19).
 *
 * - It POSTs JSON to its Server URL: `statusCode` URL-encoded (`200%20OK`), `status` as ASB hex
 *   bytes, `printerMAC`, and `printingInProgress`/`jobToken` (modern firmware).
 * - A `clientAction` in the answer is handled alone (jobReady ignored) and answered at once by
 *   another POST carrying the results.
 * - With `jobReady: true` it picks the first of `mediaTypes` it supports, GETs
 *   `?mac=&type=&token=`, prints a 200 answer and DELETEs `?mac=&code=200%20OK&token=`; any other
 *   answer to the GET gets a DELETE with `520 Data Error`.
 */

export interface CloudPrntOptions {
  /** The Server URL typed into its web settings. */
  url: string;
  mac?: string;
  /** ClientType answer. */
  clientType?: string;
  /** What it prints, as its Encodings answer lists it. */
  encodings?: string[];
  /** Modern firmware sends jobToken/token and honours deleteMethod (mC-Print3 ≥ 3.5). */
  modern?: boolean;
}

export interface PollAnswer {
  status: number;
  headers: Headers;
  body: {
    jobReady?: boolean;
    mediaTypes?: string[];
    jobToken?: string;
    deleteMethod?: string;
    clientAction?: Array<{ request: string; options?: string }>;
  } | null;
}

/** ASB status bytes (byte 3 bit 3 offline, bit 5 cover open; byte 6 bit 3 paper end). */
export const ASB = {
  online: '23 86 00 00 00 00 00 00 00 00 00',
  paperOut: '23 86 08 00 00 0C 00 00 00 00 00',
  coverOpen: '23 86 28 00 00 00 00 00 00 00 00',
  offline: '23 86 08 00 00 00 00 00 00 00 00',
} as const;

export class SimulatedCloudPrnt {
  readonly url: string;
  readonly mac: string;
  readonly modern: boolean;
  /** `200 OK`, `410 Out of paper`, … (sent URL-encoded). */
  statusCode = '200 OK';
  asb: string = ASB.online;
  printingInProgress = false;
  /** What came out on paper: one entry per job printed. */
  readonly paper: Array<{ type: string; bytes: Buffer }> = [];
  /** Every request it sent, `METHOD path?query`. */
  readonly log: string[] = [];
  private readonly clientType: string;
  private readonly encodings: string[];

  constructor(options: CloudPrntOptions) {
    this.url = options.url;
    this.mac = options.mac ?? '00:11:62:31:f0:57';
    this.modern = options.modern ?? true;
    this.clientType = options.clientType ?? 'Star mC-Print3';
    this.encodings = options.encodings ?? [
      'application/vnd.star.starprnt',
      'image/png',
      'text/plain',
      'image/vnd.star.png',
      'application/vnd.star.starprntcore',
      'application/octet-stream',
    ];
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      'user-agent': 'CloudPRNT/3.0 mC-Print3/3.6',
      'x-star-mac': this.mac,
      ...extra,
    };
  }

  /** One POST; answers a clientAction request at once, as the printer does. */
  async poll(extra: Record<string, unknown> = {}): Promise<PollAnswer> {
    let answer = await this.post({ clientAction: null, ...extra });
    for (let i = 0; i < 3 && answer.body?.clientAction?.length; i++) {
      const results = answer.body.clientAction.map((a) => ({
        request: a.request,
        result:
          a.request === 'ClientType'
            ? this.clientType
            : a.request === 'Encodings'
              ? this.encodings.join('; ')
              : a.request === 'ClientVersion'
                ? '3.0'
                : a.request === 'GetPollInterval'
                  ? '5'
                  : '',
      }));
      answer = await this.post({ clientAction: results, ...extra });
    }
    return answer;
  }

  /** A POST with this body (status fields added). */
  async post(fields: Record<string, unknown>): Promise<PollAnswer> {
    const body = {
      status: this.asb,
      printerMAC: this.mac,
      statusCode: encodeURIComponent(this.statusCode),
      ...(this.modern ? { printingInProgress: this.printingInProgress } : {}),
      ...fields,
    };
    this.log.push(`POST ${new URL(this.url).pathname}`);
    const res = await fetch(this.url, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    let parsed: PollAnswer['body'];
    try {
      parsed = JSON.parse(text) as PollAnswer['body'];
    } catch {
      parsed = null;
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }

  private target(query: Record<string, string | undefined>): string {
    const u = new URL(this.url);
    u.searchParams.set('mac', this.mac);
    for (const [k, v] of Object.entries(query)) if (v !== undefined) u.searchParams.set(k, v);
    return u.toString();
  }

  /** GET the job in `type`. */
  async fetchJob(
    type: string | undefined,
    token: string | undefined,
  ): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
    const url = this.target({ type, token: this.modern ? token : undefined });
    this.log.push(`GET ${url}`);
    const res = await fetch(url, {
      headers: this.headers({
        accept: type ?? '*/*',
        ...(this.modern && token ? { 'x-star-token': token } : {}),
      }),
      redirect: 'manual',
    });
    return {
      status: res.status,
      headers: res.headers,
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  }

  /** The confirmation: DELETE (or GET with `delete`, when the server asked for it). */
  async confirm(
    code: string,
    token: string | undefined,
    method: 'DELETE' | 'GET' = 'DELETE',
  ): Promise<{ status: number; headers: Headers }> {
    const query = { code, token: this.modern ? token : undefined };
    let url = this.target(query);
    if (method === 'GET') url += '&delete';
    this.log.push(`${method} ${url}`);
    const res = await fetch(url, { method, headers: this.headers(), redirect: 'manual' });
    await res.arrayBuffer();
    return { status: res.status, headers: res.headers };
  }

  /**
   * One whole cycle: poll; if a job is ready, fetch it in the first offered type it supports,
   * print it and confirm. Returns the poll's answer and what was printed.
   */
  async cycle(): Promise<{ answer: PollAnswer; printed?: { type: string; bytes: Buffer } }> {
    const answer = await this.poll();
    const body = answer.body;
    if (!body?.jobReady || this.printingInProgress) return { answer };
    const type = (body.mediaTypes ?? []).find((t) => this.encodings.includes(t));
    const method = body.deleteMethod === 'GET' ? 'GET' : 'DELETE';
    if (!type) {
      await this.confirm('510 Incompatible Media Type', body.jobToken, method);
      return { answer };
    }
    const job = await this.fetchJob(type, body.jobToken);
    if (job.status !== 200) {
      await this.confirm('520 Data Error', body.jobToken, method);
      return { answer };
    }
    const printed = { type, bytes: job.bytes };
    this.paper.push(printed);
    await this.confirm('200 OK', body.jobToken, method);
    return { answer, printed };
  }
}
