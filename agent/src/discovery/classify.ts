/**
 * What a discovered printer is for and which jobs it takes. Pure.
 */
import type { SpoolerQueue } from '../transports/system/spooler.js';

export type PrinterKind = 'receipt' | 'label' | 'office';
export type PrinterLanguage = 'escpos' | 'zpl' | 'epl';

/**
 * The job types a printer takes, plus `status` when it reports its state. Receipt printers take
 * everything the agent can turn into ESC/POS; label printers their own language and raw bytes;
 * office printers (system queues) documents the spooler converts.
 */
export function capabilitiesOf(
  kind: PrinterKind,
  language: PrinterLanguage,
  reportsStatus: boolean,
): string[] {
  const jobs =
    kind === 'office'
      ? ['pdf', 'image', 'html', 'raw']
      : kind === 'label'
        ? [language, 'raw']
        : ['receipt', 'text', 'escpos', 'raw', 'image', 'pdf', 'html'];
  return reportsStatus ? [...jobs, 'status'] : jobs;
}

const LABEL_ZPL = /zebra|zpl|\bzd\d|\bzt\d|gk4\d\d|gx4\d\d|zm4\d\d/i;
const LABEL_EPL = /\bepl\b|eltron|lp ?2844|tlp ?2844/i;
const RECEIPT =
  /receipt|thermal|\bpos[-_ ]?\d*|tm-[a-z]?\d|\btsp\d|epson tm|star (micronics|tsp)|xprinter|rongta|bixolon|citizen ct|escpos/i;

/**
 * A system queue's kind and language, guessed from its name, description and device: Zebra and
 * EPL label printers, receipt printers (Epson TM, Star TSP, POS-80…), else an office printer.
 */
export function classifyQueue(queue: SpoolerQueue): {
  kind: PrinterKind;
  language: PrinterLanguage;
} {
  // Queue names use underscores for spaces (Star_TSP143): make them word breaks.
  const words = [queue.name, queue.description ?? '', queue.device ?? '']
    .join(' ')
    .replace(/_/g, ' ');
  if (LABEL_EPL.test(words)) return { kind: 'label', language: 'epl' };
  if (LABEL_ZPL.test(words)) return { kind: 'label', language: 'zpl' };
  if (RECEIPT.test(words)) return { kind: 'receipt', language: 'escpos' };
  return { kind: 'office', language: 'escpos' };
}
