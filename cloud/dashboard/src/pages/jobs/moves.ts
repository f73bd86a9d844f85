/**
 * Where a group's job has been: the members it was handed to, in order, read from its events
 * (a `queued` entry names the member it moved to, with why it left the one before). A job
 * moves only while no byte of it can have printed (CONTRACT.md "Printer groups").
 */
import { i18n } from '../../i18n';
import { errorWords, printerStatusWord } from '../printers/status';
import type { Job } from './data';

/** A job event as the cloud gives it, with the member it names when it names one. */
type MemberEvent = NonNullable<Job['events']>[number] & { printerId?: string | null };

export interface MemberMoves {
  /** The members it left, oldest first, each with the reason it left (an errorCode) if known. */
  from: { printerId: string; reason: string | null }[];
  /** The index of each event at which the job moved, and the member it moved to. */
  movedAt: Map<number, string>;
}

export function memberMoves(job: Pick<Job, 'printerId' | 'events'>): MemberMoves {
  const from: MemberMoves['from'] = [];
  const movedAt = new Map<number, string>();
  let current: string | null = null;
  (job.events ?? []).forEach((event: MemberEvent, index) => {
    const to = event.printerId ?? null;
    if (!to || to === current) return;
    if (current) {
      from.push({ printerId: current, reason: event.errorCode });
      movedAt.set(index, to);
    }
    current = to;
  });
  // The job's own printerId is the member that has it now, even before an event says so.
  if (current && job.printerId && job.printerId !== current) {
    from.push({ printerId: current, reason: null });
  }
  return { from, movedAt };
}

/** Why a job left a member, in a few words: the printer's state when it is one. */
export function moveReason(code: string): string {
  const status = { PAPER_OUT: 'paper_out', COVER_OPEN: 'cover_open', PRINTER_OFFLINE: 'offline' }[
    code
  ];
  return status
    ? printerStatusWord(status)
    : errorWords(code) || i18n.t('jobs.errors.other', { code });
}
