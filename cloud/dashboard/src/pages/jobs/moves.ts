/**
 * Where a group's job has been: the members it moved from, oldest first (the job's `movedFrom`),
 * and the steps of its timeline at which it moved. A move writes a `queued` event; when the job's
 * later `queued` events are exactly its moves, each is shown with the member it went to. A job
 * moves only while no byte of it can have printed (CONTRACT.md "Printer groups").
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
  const requeued = (job.events ?? []).flatMap((e, i) => (i > 0 && e.state === 'queued' ? [i] : []));
  // Another reason to queue again (an agent that dropped while sending) would blur which step
  // was a move: then the timeline says nothing and the facts alone name the members.
  if (from.length > 0 && requeued.length === from.length) {
    requeued.forEach((index, k) => {
      const to = from[k + 1] ?? job.printerId;
      if (to) movedAt.set(index, to);
    });
  }
  return { from, movedAt };
}
