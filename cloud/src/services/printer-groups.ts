/**
 * Printer groups in the dashboard and the API (../shared/CONTRACT.md "Printer groups"): 1 to 20
 * printers of the organization, in order, each at most once. A change reaches the agents (their
 * `config` lists the groups with members on their computer, for local mode).
 *
 * Deleting a group: the jobs that already have a member stay with it and print there (they no
 * longer move); the jobs still waiting for a member fail with errorCode PRINTER_NOT_FOUND.
 */
import type { Logger } from 'pino';
import { PrintwireError, type FieldIssue } from '@printwire/shared/errors/index';
import { invalid } from '../resources/field-issues.js';
import type { Clock } from '../lib/clock.js';
import type { GroupInput } from '../storage/printer-groups.js';
import type { Store } from '../storage/store.js';
import type { PrinterGroup } from '../storage/types.js';
import type { ConfigNotifier } from './agent-config.js';
import type { JobService } from './jobs.js';

/** Most members of a group. */
export const MAX_GROUP_MEMBERS = 20;
/** Waiting jobs failed per read when a group is deleted. */
const BATCH = 100;

export interface PrinterGroupServiceDeps {
  store: Store;
  clock: Clock;
  agents: ConfigNotifier;
  jobs: JobService;
  logger: Logger;
}

export class PrinterGroupService {
  constructor(private readonly deps: PrinterGroupServiceDeps) {}

  list(organizationId: string): Promise<PrinterGroup[]> {
    return this.deps.store.printerGroups.list(organizationId);
  }

  /** NOT_FOUND when the organization has no such group. */
  async get(organizationId: string, id: string): Promise<PrinterGroup> {
    const group = await this.deps.store.printerGroups.get(organizationId, id);
    if (!group) throw new PrintwireError('NOT_FOUND', `no printer group ${id}`);
    return group;
  }

  async create(organizationId: string, input: GroupInput): Promise<PrinterGroup> {
    await this.checkPrinters(organizationId, input.printerIds);
    const group = await this.deps.store.printerGroups.create(
      organizationId,
      input,
      this.deps.clock.now(),
    );
    await this.deps.agents.changed(organizationId);
    return group;
  }

  async update(
    organizationId: string,
    id: string,
    patch: Partial<GroupInput>,
  ): Promise<PrinterGroup> {
    if (patch.printerIds !== undefined) await this.checkPrinters(organizationId, patch.printerIds);
    const group = await this.deps.store.printerGroups.update(
      organizationId,
      id,
      patch,
      this.deps.clock.now(),
    );
    if (!group) throw new PrintwireError('NOT_FOUND', `no printer group ${id}`);
    await this.deps.agents.changed(organizationId);
    return group;
  }

  /** Deletes the group; its waiting jobs fail (PRINTER_NOT_FOUND), the others stay where they are. */
  async delete(organizationId: string, id: string): Promise<void> {
    const { store, jobs, logger } = this.deps;
    if (!(await store.printerGroups.delete(organizationId, id))) {
      throw new PrintwireError('NOT_FOUND', `no printer group ${id}`);
    }
    for (;;) {
      const waiting = await store.printerGroups.waitingJobs(organizationId, id, BATCH);
      const orphans = waiting.filter((j) => j.printerId === null);
      for (const job of orphans) {
        try {
          await jobs.transition(organizationId, job.id, 'failed', {
            errorCode: 'PRINTER_NOT_FOUND',
            errorMessage: `its printer group ${id} was deleted before a member took it`,
          });
        } catch (error) {
          if (!(error instanceof PrintwireError)) throw error;
          logger.info({ jobId: job.id, code: error.code }, 'a deleted group’s job changed first');
        }
      }
      if (waiting.length < BATCH || orphans.length === 0) break;
    }
    await this.deps.agents.changed(organizationId);
  }

  /** Every member must be a real printer of the organization: 400 naming each that is not. */
  private async checkPrinters(organizationId: string, printerIds: string[]): Promise<void> {
    const unknown = new Set(
      await this.deps.store.printerGroups.unknownPrinters(organizationId, printerIds),
    );
    const issues: FieldIssue[] = [];
    printerIds.forEach((printerId, i) => {
      if (!unknown.has(printerId)) return;
      const path = `printerIds[${i}]`;
      issues.push({ path, message: `${path}: no printer ${printerId} in this organization` });
    });
    if (issues.length > 0) throw invalid('VALIDATION_FAILED', issues);
  }
}
