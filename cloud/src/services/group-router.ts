/**
 * GroupRouter: hands printer-group jobs to members as the members' status changes, and moves a
 * job to another member only while no byte of it can have printed (../shared/CONTRACT.md
 * "Printer groups", docs/agent-protocol.md "Printer groups").
 *
 * - A member becomes ready (its printer online, its device connected): the group's waiting jobs
 *   (queued, never sent) are handed out, oldest first, by the group's strategy.
 * - A member goes out (offline, paper_out, cover_open, its device gone): its jobs the cloud still
 *   holds move to a ready member at once; a job sent to an agent is asked back (`job.withdraw`,
 *   only to agents that announced it) and moves when the agent answers `job.withdrawn`
 *   withdrawn:true. A job sent to a device that went away does not move, acknowledged or not:
 *   the agent may have stored it before its acknowledgement was lost, and it prints what it
 *   stored, also offline. It is sent again when the device comes back (and asked back then, if
 *   its printer is still out).
 * - The agent says a job waits, or failed before its first byte (`job.progress` waiting or
 *   retry_scheduled with started:false), and another member is ready: the job is asked back.
 *
 * Every hand-over is a compare-and-set in storage (PrinterGroupsRepository.assign): an instance
 * that lost a race changes nothing. A moved job goes back to `queued` with its new printerId: a
 * `queued` event, a job.queued webhook, and the bus event that makes the instance holding the
 * new member's device send it.
 */
import type { Logger } from 'pino';
import { isReadyMemberStatus } from '@printwire/shared/contracts/group-routing';
import type { Clock } from '../lib/clock.js';
import type { GroupPick, GroupTurn } from '../storage/jobs.js';
import type { AssignExpectation, GroupMember } from '../storage/printer-groups.js';
import type { Store } from '../storage/store.js';
import type { Job, Printer, PrinterGroup } from '../storage/types.js';
import type { JobService } from './jobs.js';
import { chooseMember, isReady } from './targets.js';

/** The dispatcher's side: the sockets this instance holds. */
export interface WithdrawChannel {
  /** Sends `job.withdraw` to the agent holding the job; false when it cannot (not here, old agent). */
  askWithdraw(job: Job): boolean;
}

export interface GroupRouterDeps {
  store: Store;
  jobs: JobService;
  clock: Clock;
  logger: Logger;
}

/** Jobs read per pass. */
const BATCH = 100;

type Found = { group: PrinterGroup; members: GroupMember[] };

export class GroupRouter {
  constructor(
    private readonly deps: GroupRouterDeps,
    private readonly channel: WithdrawChannel,
  ) {}

  /**
   * Printers of one organization changed status (or their device connected or left). Never
   * throws: a failure is logged, and the next change routes again.
   */
  async printersChanged(organizationId: string, printers: readonly Printer[]): Promise<void> {
    if (printers.length === 0) return;
    try {
      const groups = this.deps.store.printerGroups;
      const groupIds = await groups.groupsHolding(
        organizationId,
        printers.map((p) => p.id),
      );
      if (groupIds.length === 0) return;
      for (const printer of printers) {
        if (isReadyMemberStatus(printer.status)) continue;
        await this.memberOut(organizationId, printer.id);
      }
      for (const groupId of groupIds) await this.routeWaiting(organizationId, groupId);
    } catch (err) {
      this.deps.logger.error({ err, organizationId }, 'routing printer-group jobs failed');
    }
  }

  /** Hands the group's waiting jobs to ready members, oldest first, while one is ready. */
  async routeWaiting(organizationId: string, groupId: string): Promise<void> {
    const { store } = this.deps;
    for (;;) {
      const found = await store.printerGroups.withMembers(organizationId, groupId);
      if (!found) return;
      const jobs = await store.printerGroups.waitingJobs(organizationId, groupId, BATCH);
      let handed = 0;
      for (const job of jobs) {
        const current = found.members.find((m) => m.printerId === job.printerId);
        // Its member is ready: the dispatcher sends it there.
        if (current && isReady(current)) continue;
        const to = this.target(found, job.printerId ?? undefined);
        if (!to) return;
        if (await this.assign(job, { printerId: job.printerId, from: 'waiting' }, to)) handed++;
      }
      if (jobs.length < BATCH || handed === 0) return;
    }
  }

  /**
   * A member went out: its jobs the cloud holds move to a ready member; the jobs sent to an agent
   * are asked back (a device that is gone cannot answer: its jobs stay, they may have printed).
   */
  private async memberOut(organizationId: string, printerId: string): Promise<void> {
    const { store } = this.deps;
    const jobs = await store.printerGroups.jobsOfMember(organizationId, printerId, BATCH);
    for (const job of jobs) {
      const found = await store.printerGroups.withMembers(organizationId, job.printerGroupId!);
      if (!found) continue;
      const to = this.target(found, printerId);
      if (!to) continue;
      if (job.state === 'queued' && job.dispatchedAt === null) {
        await this.assign(job, { printerId, from: 'waiting' }, to);
        continue;
      }
      this.channel.askWithdraw(job);
    }
  }

  /**
   * The agent reported that the job waits for its printer, or that an attempt failed before its
   * first byte: another member being ready, the job is asked back.
   */
  async notStarted(job: Job): Promise<void> {
    if (job.printerGroupId === null || job.printerId === null) return;
    const found = await this.deps.store.printerGroups.withMembers(
      job.organizationId,
      job.printerGroupId,
    );
    if (!found || !this.target(found, job.printerId)) return;
    this.channel.askWithdraw(job);
  }

  /**
   * `job.withdrawn` withdrawn:true: the agent dropped the job and sends no byte of it. It moves
   * to another ready member, or, none being ready, waits without one (its group deleted: it goes
   * back to its member).
   */
  async withdrawn(job: Job): Promise<void> {
    if (job.printerGroupId === null) return;
    const found = await this.deps.store.printerGroups.withMembers(
      job.organizationId,
      job.printerGroupId,
    );
    // The group deleted meanwhile: the job goes back to its member (it no longer moves).
    const same =
      job.printerId !== null && job.deviceId !== null
        ? { printerId: job.printerId, deviceId: job.deviceId }
        : null;
    const to = found ? this.target(found, job.printerId ?? undefined) : same;
    await this.assign(job, { printerId: job.printerId, from: 'withdrawn' }, to);
  }

  /**
   * Where a group's next job goes, leaving `exclude` out: the member (failover), the turn to take
   * in the write (round-robin), or null when no member is ready.
   */
  private target(found: Found, exclude?: string): GroupMember | GroupTurn | null {
    const { group, members } = found;
    const member = chooseMember(group.strategy, members, group.lastPrinterId, exclude);
    if (!member) return null;
    if (group.strategy === 'failover') return member;
    return {
      groupId: group.id,
      pick: (last) => chooseMember(group.strategy, members, last, exclude),
    };
  }

  /** The compare-and-set hand-over, then the announcement; false when the job changed first. */
  private async assign(
    job: Job,
    expect: AssignExpectation,
    to: GroupPick | GroupTurn | null,
  ): Promise<boolean> {
    const { store, jobs, clock, logger } = this.deps;
    const now = clock.now();
    const target =
      to === null ? null : 'pick' in to ? to : { printerId: to.printerId, deviceId: to.deviceId };
    const result = await store.printerGroups.assign(
      job.organizationId,
      job.id,
      expect,
      target,
      now,
    );
    if (!result) return false;
    logger.info(
      { jobId: job.id, from: job.printerId, to: result.job.printerId },
      result.event
        ? 'a printer-group job moved to another member'
        : 'a printer-group job got its member',
    );
    await jobs.publish(result.job, [result.event ?? { state: 'queued', errorCode: null, at: now }]);
    return true;
  }
}
