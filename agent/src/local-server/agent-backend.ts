import type { ConfigPrinterGroup, PrinterInfo } from '@printwire/shared/protocol/index';
import { chooseGroupMember, isReadyMemberStatus } from '@printwire/shared/contracts/group-routing';
import { printOptions } from '@printwire/shared/contracts/job-request';
import type { Clock } from '../core/clock.js';
import type { JobQueue, LocalJobRecord } from '../queue/job-queue.js';
import type { LocalBackend, LocalEvent, LocalInfo } from './backend.js';
import { LocalApiError } from './errors.js';
import { newId } from '@printwire/shared/ids/index';
import { prepareLocalJob, type LocalJobRequest } from './job-request.js';
import {
  loadOriginAnswers,
  setOriginAnswer,
  type LocalSettings,
  type StoredTemplate,
} from './local-store.js';
import { LOCAL_LIMITS, type LocalJob, type LocalPrinter } from './protocol.js';

/** What the local API needs from the agent to serve pages. */
export interface AgentBackendDeps {
  dataDir: string;
  queue: JobQueue;
  clock: Clock;
  production: boolean;
  info(): LocalInfo;
  printers(): PrinterInfo[];
  /** The cloud's printer id of each agent printer (from the last config). */
  cloudPrinterId(agentPrinterId: string): string | null;
  /** A printer group of the last config (only its members on this computer), or undefined. */
  printerGroup(id: string): ConfigPrinterGroup | undefined;
  settings(): LocalSettings;
  template(id: string): StoredTemplate | undefined;
  /** A local job was stored (or changed): the agent reports it and wakes the printer. */
  jobStored(jobId: string, agentPrinterId: string): Promise<void>;
  cancel(jobId: string): Promise<void>;
}

const DEFAULT_EXPIRE_AFTER_S = 86_400;
const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * The agent's side of the local API: printers as pages see them, local jobs through the durable
 * queue (source local), events, and the trust stores.
 */
export class AgentBackend implements LocalBackend {
  readonly #d: AgentBackendDeps;
  readonly #listeners = new Set<(event: LocalEvent) => void>();
  readonly nonces;

  constructor(deps: AgentBackendDeps) {
    this.#d = deps;
    this.nonces = {
      remember: (nonce: string, nowSeconds: number) =>
        deps.queue.rememberNonce(nonce, nowSeconds, LOCAL_LIMITS.signatureWindowSeconds),
    };
  }

  info(): LocalInfo {
    return this.#d.info();
  }

  printers(): LocalPrinter[] {
    return this.#d.printers().map((p) => this.#present(p));
  }

  #present(p: PrinterInfo): LocalPrinter {
    return {
      agentPrinterId: p.agentPrinterId,
      printerId: this.#d.cloudPrinterId(p.agentPrinterId),
      name: p.name,
      alias: p.alias,
      kind: p.kind,
      language: p.language,
      paper: p.paper,
      status: p.status,
      isDefault: p.isDefault,
    };
  }

  settings(): LocalSettings {
    return this.#d.settings();
  }

  originAnswers() {
    return loadOriginAnswers(this.#d.dataDir);
  }

  setOriginAnswer(origin: string, answer: 'allow' | 'block'): void {
    setOriginAnswer(this.#d.dataDir, origin, answer, new Date(this.#d.clock.now()));
  }

  subscribe(listener: (event: LocalEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(event: LocalEvent): void {
    for (const listener of this.#listeners) listener(event);
  }

  /** The agent tells the pages that a printer's status changed. */
  printerStatus(agentPrinterId: string, detail: string | null): void {
    this.moveHeldGroupJobs();
    const printer = this.#d.printers().find((p) => p.agentPrinterId === agentPrinterId);
    if (!printer) return;
    this.#emit({
      event: 'printer.status',
      data: { ...this.#present(printer), detail, at: new Date(this.#d.clock.now()).toISOString() },
    });
  }

  /** The agent tells the pages that a local job changed. */
  jobChanged(jobId: string): void {
    const job = this.job(jobId);
    if (job) this.#emit({ event: 'job', data: job });
  }

  job(jobId: string): LocalJob | null {
    const record = this.#d.queue.localRecord(jobId);
    return record ? this.#presentJob(record) : null;
  }

  #presentJob(record: LocalJobRecord): LocalJob {
    return {
      id: record.id,
      source: 'local',
      idempotencyKey: record.idempotencyKey,
      agentPrinterId: record.agentPrinterId,
      printerId: this.#d.cloudPrinterId(record.agentPrinterId),
      printerGroupId: this.#d.queue.printerGroupOf(record.id),
      type: record.type,
      templateId: record.templateId,
      state: record.state,
      attempt: record.attempt,
      errorCode: record.errorCode,
      errorMessage: record.errorMessage,
      metadata: record.metadata,
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
    };
  }

  #printerFor(req: LocalJobRequest): PrinterInfo {
    const printers = this.#d.printers();
    const ref =
      req.printerId ?? req.printer ?? (req.alias !== undefined ? { alias: req.alias } : undefined);
    const matches = (p: PrinterInfo, id?: string, alias?: string, name?: string) =>
      (id !== undefined &&
        (p.agentPrinterId === id || this.#d.cloudPrinterId(p.agentPrinterId) === id)) ||
      (alias !== undefined && p.alias === alias) ||
      (name !== undefined && p.name === name);
    let found: PrinterInfo | undefined;
    if (ref === undefined) found = printers.find((p) => p.isDefault) ?? printers[0];
    else if (typeof ref === 'string') found = printers.find((p) => matches(p, ref, ref, ref));
    else found = printers.find((p) => matches(p, ref.id, ref.alias, ref.name));
    if (!found) {
      throw new LocalApiError(
        'PRINTER_NOT_FOUND',
        ref === undefined
          ? 'this agent has no printer'
          : `this agent has no printer ${JSON.stringify(ref)}`,
      );
    }
    return found;
  }

  /** The group's members on this computer, in the group's order. */
  #members(group: ConfigPrinterGroup): PrinterInfo[] {
    const printers = this.#d.printers();
    return group.agentPrinterIds.flatMap((id) => printers.filter((p) => p.agentPrinterId === id));
  }

  /**
   * The member a new job of the group goes to: the cloud's rule (failover: the first ready;
   * round-robin: the next ready after the last one). None ready: it waits on the member the rule
   * would take if all were, and moves when another becomes ready.
   */
  #memberFor(groupId: string): PrinterInfo {
    const group = this.#d.printerGroup(groupId);
    if (!group) {
      throw new LocalApiError(
        'INVALID_JOB',
        `printerGroupId: no printer group ${groupId} on this agent (groups come from the cloud's config)`,
        [{ path: 'printerGroupId', message: `printerGroupId: no printer group ${groupId} here` }],
      );
    }
    const members = this.#members(group);
    if (members.length === 0) {
      throw new LocalApiError(
        'PRINTER_NOT_FOUND',
        `printer group ${groupId} has no printer on this computer`,
      );
    }
    const last = group.strategy === 'round-robin' ? this.#d.queue.groupCursor(group.id) : null;
    const options = { id: (p: PrinterInfo) => p.agentPrinterId, last };
    const chosen =
      chooseGroupMember(group.strategy, members, {
        ...options,
        ready: (p) => isReadyMemberStatus(p.status),
      }) ?? chooseGroupMember(group.strategy, members, { ...options, ready: () => true })!;
    if (group.strategy === 'round-robin')
      this.#d.queue.setGroupCursor(group.id, chosen.agentPrinterId);
    return chosen;
  }

  /**
   * Moves each local group job that has not started off a member that cannot print (offline,
   * paper out, cover open) to a member that is ready, by the group's rule (a job whose own member
   * is ready stays). Called when a printer's status or the groups change.
   */
  moveHeldGroupJobs(): void {
    const held = this.#d.queue.heldGroupJobs();
    if (held.length === 0) return;
    const ready = (p: PrinterInfo) => isReadyMemberStatus(p.status);
    for (const job of held) {
      const group = this.#d.printerGroup(job.printerGroupId);
      const members = group ? this.#members(group) : [];
      const current = members.find((p) => p.agentPrinterId === job.agentPrinterId);
      if (!group || (current && ready(current))) continue;
      const last = group.strategy === 'round-robin' ? this.#d.queue.groupCursor(group.id) : null;
      const to = chooseGroupMember(group.strategy, members, {
        id: (p) => p.agentPrinterId,
        ready,
        last,
        exclude: job.agentPrinterId,
      });
      if (!to || !this.#d.queue.moveGroupJob(job.id, job.agentPrinterId, to.agentPrinterId)) {
        continue;
      }
      if (group.strategy === 'round-robin')
        this.#d.queue.setGroupCursor(group.id, to.agentPrinterId);
      void this.#d.jobStored(job.id, to.agentPrinterId);
    }
  }

  async print(body: unknown): Promise<LocalJob> {
    const prepared = prepareLocalJob(body, (id) => this.#d.template(id), {
      production: this.#d.production,
    });
    const req = prepared.request;
    const groupId = req.printerGroupId ?? null;
    const printer = groupId !== null ? this.#memberFor(groupId) : this.#printerFor(req);
    const now = this.#d.clock.now();
    const o = req.options ?? {};
    const options = printOptions(o);
    const { id, created } = this.#d.queue.acceptLocal(
      {
        id: newId('job', now),
        attempt: 1,
        maxAttempts: o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        agentPrinterId: printer.agentPrinterId,
        type: prepared.type,
        encoding: prepared.encoding,
        content: prepared.content,
        options,
        expiresAt: new Date(now + (o.expireAfter ?? DEFAULT_EXPIRE_AFTER_S) * 1000).toISOString(),
        createdAt: new Date(now).toISOString(),
      },
      {
        idempotencyKey: req.idempotencyKey ?? null,
        templateId: prepared.templateId,
        metadata: req.metadata ?? {},
        printerGroupId: groupId,
      },
    );
    if (created) await this.#d.jobStored(id, printer.agentPrinterId);
    return this.job(id)!;
  }

  async cancel(jobId: string): Promise<LocalJob> {
    if (!this.#d.queue.isLocal(jobId))
      throw new LocalApiError('JOB_NOT_FOUND', `no local job ${jobId}`);
    await this.#d.cancel(jobId);
    return this.job(jobId)!;
  }
}
