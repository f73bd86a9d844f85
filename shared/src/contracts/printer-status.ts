/**
 * A printer's status, as the agent reads it, the cloud stores and answers it (`GET /v1/printers`),
 * the webhooks and the live channel carry it, and the apps say it. `unknown` until the first
 * check; `error` covers every other fault the printer reports (cutter jam, overheating). No
 * imports: the web apps take it too.
 */
export const PRINTER_STATUSES = [
  'online',
  'offline',
  'paper_out',
  'cover_open',
  'error',
  'unknown',
] as const;
export type PrinterStatus = (typeof PRINTER_STATUSES)[number];

/** Statuses in which a printer cannot print now: a person should look at it. */
export const PRINTER_NEEDS_ATTENTION: readonly PrinterStatus[] = [
  'paper_out',
  'cover_open',
  'offline',
  'error',
];
