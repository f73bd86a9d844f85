/**
 * The rule that picks a printer group's member (the contract's "Printer groups"), pure, so that
 * the agent's local server applies the same rule as the cloud. failover: the first ready member
 * in order; round-robin: the first ready member after the one that took the group's last job,
 * wrapping around. A member is ready when its printer is online (or its status is not read yet)
 * and, where it applies, its computer is connected.
 */

/** Printer statuses in which a member takes jobs (`unknown`: its status is not read yet). */
export const READY_MEMBER_STATUSES: readonly string[] = ['online', 'unknown'];

/** Whether a printer with this status takes a group's job. */
export function isReadyMemberStatus(status: string): boolean {
  return READY_MEMBER_STATUSES.includes(status);
}

export interface ChooseMemberOptions<M> {
  /** The member's printer id, as `last` and `exclude` name it. */
  id: (member: M) => string;
  ready: (member: M) => boolean;
  /** round-robin: the member that took the group's last job (null: none yet). */
  last: string | null;
  /** A member left out (the one a job is being moved from). */
  exclude?: string;
}

/** The member that takes the group's next job, or null when none is ready. */
export function chooseGroupMember<M>(
  strategy: 'failover' | 'round-robin',
  members: readonly M[],
  options: ChooseMemberOptions<M>,
): M | null {
  const n = members.length;
  const lastIndex =
    strategy === 'round-robin' && options.last !== null
      ? members.findIndex((m) => options.id(m) === options.last)
      : -1;
  for (let i = 0; i < n; i++) {
    const member = members[(lastIndex + 1 + i) % n]!;
    if (options.id(member) !== options.exclude && options.ready(member)) return member;
  }
  return null;
}
