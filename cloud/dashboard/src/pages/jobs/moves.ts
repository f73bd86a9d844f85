/**
 * Where a group's job has been: the members it moved from, oldest first (the job's `movedFrom`),
 * and the steps of its timeline at which it moved: a move writes a `queued` event naming the
 * member it went to (`printerId`). A job moves only while no byte of it can have printed
 * (CONTRACT.md "Printer groups").
 */
import type { Job } from './data';

export interface MemberMoves {
  /** The printer ids of the members it left, oldest first. */
  from: string[];
  /** The index of each timeline event at which the job moved, and the member it moved to. */
  movedAt: Map<number, string>;
}

export function memberMoves(job: Pick<Job, 'printerId' | 'movedFrom' | 'events'>): MemberMoves {
  const from = job.movedFrom ?? [];
  const movedAt = new Map<number, string>();
  // A move's `queued` event names the member the job went to (a retry's does not).
  (job.events ?? []).forEach((e, i) => {
    if (e.state === 'queued' && e.printerId) movedAt.set(i, e.printerId);
  });
  return { from, movedAt };
}
