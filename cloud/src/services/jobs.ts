/**
 * JobService: creating, reading, cancelling and reprinting jobs, and the small internal API the
 * agent gateway uses (transition, listQueuedForDevice). Test-mode jobs are printed by the sandbox
 * in the same durable write that creates them; every state change is published on the bus.
 */
import type { Logger } from 'pino';
import { printOptions } from '@printwire/shared/contracts/job-request';
import { PrintwireError, type FieldIssue } from '@printwire/shared/errors/index';
import { renderReceiptDocument, renderTemplate } from '@printwire/shared/template/index';
import { renderEscposToPng } from '@printwire/shared/escpos/index';
import type { EventBus } from '../bus/events.js';
import type { CloudConfig } from '../config.js';
import { invalid } from '../resources/field-issues.js';
import { presentJob } from '../resources/present.js';
import type { Clock } from '../lib/clock.js';
import {
  printedBytes,
  printedLabelDocument,
  printVirtually,
  type VirtualJob,
} from '../sandbox/virtual-printer.js';
import {
  HTML_LABEL_NO_PREVIEW,
  URL_LABEL_NO_PREVIEW,
  labelPreviewLanguage,
  renderLabelPreview,
  type LabelPreview,
} from '../sandbox/label-preview.js';
import type { HtmlLabelRenderer } from '../sandbox/html-labels.js';
import type { WriteOptions } from '../storage/group-commit.js';
import type { TransitionInfo } from '../storage/job-states.js';
import type { JobFilter, LocalJobResult, NewJob } from '../storage/jobs.js';
import type { LocalJob } from '@printwire/shared/protocol/index';
import type { Store } from '../storage/store.js';
import type {
  Job,
  JobState,
  Mode,
  Organization,
  Page,
  PageQuery,
  Printer,
} from '../storage/types.js';
import { validateJobRequest } from './job-request.js';
import { PLAN_RULES } from './plans.js';
import { chooseMember, resolveTarget, type Target } from './targets.js';
import { cloudJobProblem, previewOf } from './cloud-printers/job-output.js';

export interface JobContext {
  organization: Organization;
  mode: Mode;
}

export interface JobServiceDeps {
  store: Store;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  config: CloudConfig;
  /** The sandbox's browser for HTML label previews; none: such jobs have no preview. */
  htmlLabels?: HtmlLabelRenderer;
}

const DEFAULT_EXPIRE_AFTER_S = 86_400;
const DEFAULT_MAX_ATTEMPTS = 3;

interface Prepared {
  type: string;
  encoding: string;
  content: Buffer;
  templateId: string | null;
  templatePaper: string | null;
}

export class JobService {
  constructor(private readonly deps: JobServiceDeps) {}

  /** POST /v1/jobs: 201 with created true, or the job an idempotency key names (created false). */
  async create(
    ctx: JobContext,
    body: unknown,
    idempotencyHeader?: string,
  ): Promise<{ job: Job; created: boolean }> {
    const { config } = this.deps;
    const checked = validateJobRequest(body, { production: config.production });
    const headerIssue = idempotencyProblem(
      idempotencyHeader,
      config.limits.maxIdempotencyKeyLength,
    );
    if (!checked.ok || headerIssue) {
      throw invalid('INVALID_JOB', [
        ...(checked.ok ? [] : checked.issues),
        ...(headerIssue ? [headerIssue] : []),
      ]);
    }
    const req = checked.value.request;
    const [prepared, target] = await Promise.all([
      checked.value.direct
        ? Promise.resolve<Prepared>({
            type: checked.value.direct.type,
            encoding: checked.value.direct.encoding,
            content: checked.value.direct.content,
            templateId: null,
            templatePaper: null,
          })
        : this.renderFromTemplate(ctx, req.templateId!, req.data),
      resolveTarget(this.deps.store, ctx.organization.id, ctx.mode, req),
    ]);
    if (!target.ok) throw invalid('INVALID_JOB', target.issues);
    const cloudProblem = cloudTargetProblem(target.target.printer, prepared);
    if (cloudProblem) throw invalid('INVALID_JOB', [cloudProblem]);
    const o = req.options ?? {};
    const options = printOptions(o);
    const paper = o.paper ?? prepared.templatePaper ?? undefined;
    if (paper !== undefined) options.paper = paper;
    return this.store(ctx, {
      prepared,
      target: target.target,
      options,
      metadata: req.metadata ?? {},
      idempotencyKey: idempotencyHeader ?? req.idempotencyKey ?? null,
      expireAfterS: o.expireAfter ?? DEFAULT_EXPIRE_AFTER_S,
      maxAttempts: o.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    });
  }

  private async renderFromTemplate(
    ctx: JobContext,
    templateId: string,
    data: unknown,
  ): Promise<Prepared> {
    const template = await this.deps.store.templates.get(ctx.organization.id, templateId);
    if (!template) {
      throw invalid('INVALID_JOB', [
        { path: 'templateId', message: `templateId: no template ${templateId}` },
      ]);
    }
    const cacheKey = { id: template.id, version: template.version };
    try {
      if (template.type === 'receipt') {
        const document = renderReceiptDocument(template.content, data, cacheKey);
        return {
          type: 'receipt',
          encoding: 'json',
          content: Buffer.from(JSON.stringify(document), 'utf8'),
          templateId: template.id,
          templatePaper: template.paper,
        };
      }
      const text = renderTemplate(template.content, data, template.type, cacheKey);
      return {
        type: template.type,
        encoding: 'utf8',
        content: Buffer.from(text, 'utf8'),
        templateId: template.id,
        templatePaper: template.paper,
      };
    } catch (error) {
      if (error instanceof PrintwireError) {
        throw invalid('INVALID_JOB', [
          {
            path: 'data',
            message: `data: template ${template.id} cannot render it: ${error.message}`,
          },
        ]);
      }
      throw error;
    }
  }

  private async store(
    ctx: JobContext,
    input: {
      prepared: Prepared;
      target: Target;
      options: Record<string, unknown>;
      metadata: Record<string, string>;
      idempotencyKey: string | null;
      expireAfterS: number;
      maxAttempts: number;
    },
  ): Promise<{ job: Job; created: boolean }> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const org = ctx.organization;
    const rules = PLAN_RULES[org.plan] ?? PLAN_RULES.free;
    const { prepared } = input;
    let target = input.target;
    const options = { ...input.options };
    let group: Pick<NewJob, 'printerGroupId' | 'groupTurn'> = {};
    if (target.group) {
      const routed = await this.routeNewGroupJob(ctx, target.group);
      target = routed.target;
      group = routed.group;
    }
    if (rules.footer && prepared.type === 'receipt') options.footer = true;

    let previewable = false;
    let then: Array<{ state: JobState; errorCode?: string; errorMessage?: string }> | undefined;
    if (ctx.mode === 'test') {
      const print = printVirtually(
        prepared.type,
        target.printer,
        options.paper as string | undefined,
        this.deps.htmlLabels?.available ?? false,
      );
      // A printer that connects by itself: the preview is drawn from what it receives.
      // A document given by URL is downloaded by the agent; the sandbox fetches nothing.
      previewable =
        isCloudPrinter(target.printer) ||
        (print.previewable && !(print.label?.labelLanguage && prepared.encoding === 'url'));
      then = print.then;
      options.paper = print.paper;
      if (prepared.type === 'receipt') options.profile = print.profile;
      if (print.label) Object.assign(options, print.label);
    }

    const result = await store.jobs.create(
      {
        organizationId: org.id,
        mode: ctx.mode,
        idempotencyKey: input.idempotencyKey,
        deviceId: target.deviceId,
        printerId: target.printerId,
        source: 'cloud',
        type: prepared.type,
        encoding: prepared.encoding,
        templateId: prepared.templateId,
        maxAttempts: input.maxAttempts,
        metadata: input.metadata,
        options,
        content: prepared.content,
        previewable,
        expiresAt: now + input.expireAfterS * 1000,
        retentionDays: org.retentionDays,
        monthlyQuota: rules.monthlyJobs,
        ...group,
        ...(then ? { then } : {}),
      },
      now,
    );
    if (result.created) await this.publish(result.job, result.job.events ?? []);
    return result;
  }

  /**
   * A job that names a group gets its member now (../shared/CONTRACT.md "Printer groups"):
   * failover's first ready member, or, for round-robin, a turn taken in the job's own write (so
   * that concurrent jobs, also on other instances, go round in turn). No member ready: no printer
   * yet, the job waits (GroupRouter hands it over when one is). A test job is printed virtually
   * on the member it would go to, or the first one.
   */
  private async routeNewGroupJob(
    ctx: JobContext,
    found: NonNullable<Target['group']>,
  ): Promise<{ target: Target; group: Pick<NewJob, 'printerGroupId' | 'groupTurn'> }> {
    const { group, members } = found;
    const printerGroupId = group.id;
    if (ctx.mode === 'test' || group.strategy === 'failover') {
      let member = chooseMember(group.strategy, members, group.lastPrinterId);
      if (!member && ctx.mode === 'test') member = members[0] ?? null;
      const printer =
        ctx.mode === 'test' && member
          ? await this.deps.store.inventory.getPrinter(ctx.organization.id, member.printerId, {
              includeSandbox: true,
            })
          : undefined;
      return {
        target: {
          deviceId: member?.deviceId ?? null,
          printerId: member?.printerId ?? null,
          printer,
        },
        group: { printerGroupId },
      };
    }
    return {
      target: { deviceId: null, printerId: null, printer: undefined },
      group: {
        printerGroupId,
        groupTurn: {
          groupId: group.id,
          pick: (last) => chooseMember(group.strategy, members, last),
        },
      },
    };
  }

  async get(ctx: JobContext, id: string): Promise<Job> {
    const job = await this.deps.store.jobs.get(ctx.organization.id, ctx.mode, id);
    if (!job) throw new PrintwireError('JOB_NOT_FOUND', `no job ${id}`);
    return job;
  }

  list(ctx: JobContext, filter: JobFilter, page: PageQuery): Promise<Page<Job>> {
    return this.deps.store.jobs.list(ctx.organization.id, ctx.mode, filter, page);
  }

  /**
   * queued → cancelled; a finished job is 409 JOB_ALREADY_FINISHED, one being sent 409 CONFLICT,
   * a local job 409 CONFLICT (it is cancelled on the computer that prints it).
   */
  async cancel(ctx: JobContext, id: string): Promise<Job> {
    const job = await this.get(ctx, id);
    if (job.source === 'local' && job.finishedAt === null) {
      throw new PrintwireError(
        'CONFLICT',
        `job ${id} was printed locally: cancel it through the agent that prints it`,
      );
    }
    return this.transition(ctx.organization.id, id, 'cancelled', {}, ctx.mode);
  }

  /**
   * `job.local`: stores what the agent reported of a job a web page printed through it, and
   * publishes the events the report added (webhooks, the dashboard's live channel). Repeated or
   * older reports publish nothing.
   */
  async recordLocal(
    organizationId: string,
    deviceId: string,
    reported: LocalJob,
  ): Promise<LocalJobResult> {
    const ms = (iso: string) => Date.parse(iso);
    const result = await this.deps.store.jobs.upsertLocal(
      organizationId,
      deviceId,
      {
        ...reported,
        createdAt: ms(reported.createdAt),
        updatedAt: ms(reported.updatedAt),
        printedAt: reported.printedAt === null ? null : ms(reported.printedAt),
        events: reported.events.map((e) => ({ ...e, at: ms(e.at) })),
      },
      this.deps.clock.now(),
    );
    if (result.events.length > 0) await this.publish(result.job, result.events);
    return result;
  }

  /** A new job with the same content and target, metadata.reprintOf naming the original. */
  async reprint(
    ctx: JobContext,
    id: string,
    idempotencyHeader?: string,
  ): Promise<{ job: Job; created: boolean }> {
    const headerIssue = idempotencyProblem(
      idempotencyHeader,
      this.deps.config.limits.maxIdempotencyKeyLength,
    );
    if (headerIssue) throw invalid('VALIDATION_FAILED', [headerIssue]);
    const original = await this.get(ctx, id);
    const stored = await this.deps.store.jobs.getContent(ctx.organization.id, ctx.mode, id);
    if (!stored) {
      throw new PrintwireError(
        'CONFLICT',
        `job ${id}'s content is no longer retained, so it cannot be reprinted`,
      );
    }
    const printer = original.printerId
      ? await this.deps.store.inventory.getPrinter(ctx.organization.id, original.printerId, {
          includeSandbox: ctx.mode === 'test',
        })
      : undefined;
    const options = { ...original.options };
    delete options.footer;
    delete options.profile;
    // A group job is reprinted through its group while the group exists.
    const viaGroup = original.printerGroupId
      ? await resolveTarget(this.deps.store, ctx.organization.id, ctx.mode, {
          printerGroupId: original.printerGroupId,
        })
      : undefined;
    return this.store(ctx, {
      prepared: {
        type: original.type,
        encoding: original.encoding,
        content: stored.content,
        templateId: original.templateId,
        templatePaper: null,
      },
      target: viaGroup?.ok
        ? viaGroup.target
        : {
            deviceId: original.deviceId,
            printerId: original.printerId,
            printer: printer as Printer | undefined,
          },
      options,
      metadata: { ...original.metadata, reprintOf: original.id },
      idempotencyKey: idempotencyHeader ?? null,
      expireAfterS:
        original.expiresAt !== null
          ? Math.round((original.expiresAt - original.createdAt) / 1000)
          : DEFAULT_EXPIRE_AFTER_S,
      maxAttempts: original.maxAttempts,
    });
  }

  /**
   * Moves a job to another state and publishes the change: the gateway's entry point (mode
   * omitted), also used by cancel (mode given, so a key only touches its own mode's jobs).
   */
  async transition(
    organizationId: string,
    jobId: string,
    to: JobState,
    info: TransitionInfo,
    mode: Mode | null = null,
    options?: WriteOptions,
  ): Promise<Job> {
    const result = await this.deps.store.jobs.transition(
      organizationId,
      mode,
      jobId,
      to,
      info,
      this.deps.clock.now(),
      options,
    );
    await this.publish(result.job, [result.event]);
    const job = await this.deps.store.jobs.get(organizationId, result.job.mode, jobId);
    return job ?? result.job;
  }

  listQueuedForDevice(organizationId: string, deviceId: string): Promise<Job[]> {
    return this.deps.store.jobs.listQueuedForDevice(organizationId, deviceId);
  }

  /**
   * The bytes the virtual printer printed for a sandbox job (computed from the stored content),
   * or undefined when it has none: live jobs, types without a preview, deleted content.
   */
  async printedBytes(
    ctx: JobContext,
    id: string,
  ): Promise<{ job: Job; bytes: Buffer; preview: Buffer | null } | undefined> {
    const job = await this.get(ctx, id);
    if (job.mode !== 'test' || !job.hasPreview) return undefined;
    const stored = await this.deps.store.jobs.getContent(ctx.organization.id, ctx.mode, id);
    if (!stored) return undefined;
    const virtual: VirtualJob = {
      type: job.type,
      encoding: job.encoding,
      content: stored.content,
      options: job.options as VirtualJob['options'],
    };
    const drawn = await printedLabelDocument(
      virtual,
      `${ctx.organization.id}/${job.id}`,
      this.deps.htmlLabels,
    );
    const bytes = drawn ?? printedBytes(virtual);
    return bytes ? { job, bytes, preview: stored.preview } : undefined;
  }

  /** NOT_FOUND for a job without a preview, saying why when there is a reason to give. */
  private async noPreview(ctx: JobContext, id: string, what: string): Promise<never> {
    const job = await this.get(ctx, id);
    const document = job.mode === 'test' && labelPreviewLanguage(job) && job.type !== 'zpl';
    const why = !document
      ? ''
      : job.encoding === 'url'
        ? `: ${URL_LABEL_NO_PREVIEW}`
        : job.type === 'html'
          ? `: ${HTML_LABEL_NO_PREVIEW}`
          : '';
    throw new PrintwireError('NOT_FOUND', `job ${id} has no ${what}${why}`);
  }

  /**
   * What a job was asked to print, as stored (the dashboard's job page shows it): JOB_NOT_FOUND
   * for no job, NOT_FOUND once the content is deleted (retention).
   */
  async content(ctx: JobContext, id: string): Promise<{ job: Job; content: Buffer }> {
    const job = await this.get(ctx, id);
    const stored = await this.deps.store.jobs.getContent(ctx.organization.id, ctx.mode, id);
    if (!stored) throw new PrintwireError('NOT_FOUND', `job ${id}'s content is no longer retained`);
    return { job, content: Buffer.from(stored.content) };
  }

  /**
   * The PNG the virtual printer drew of a sandbox job: drawn on first request from the bytes it
   * printed, then kept with the content (and deleted with it). JOB_NOT_FOUND for no job;
   * NOT_FOUND for live jobs, types without a preview, and deleted content.
   */
  async preview(ctx: JobContext, id: string): Promise<Buffer> {
    const cloud = await this.cloudPreview(ctx, id);
    if (cloud) return cloud;
    const printed = await this.printedBytes(ctx, id);
    if (!printed) return this.noPreview(ctx, id, 'preview');
    if (printed.preview) return printed.preview;
    if (labelPreviewLanguage(printed.job)) {
      return (await this.labelPreview(ctx, id, 0)).png;
    }
    const paper = printed.job.options.paper === '58mm' ? '58mm' : '80mm';
    const png = await renderEscposToPng(printed.bytes, { paper });
    await this.deps.store.jobs.savePreview(ctx.organization.id, id, png);
    return png;
  }

  /**
   * A test job's picture for a printer that connects by itself, drawn from what that printer
   * would receive (then kept like any preview); undefined for any other job.
   */
  private async cloudPreview(ctx: JobContext, id: string): Promise<Buffer | undefined> {
    const job = await this.get(ctx, id);
    if (job.mode !== 'test' || !job.hasPreview || !job.printerId) return undefined;
    const printer = await this.deps.store.inventory.getPrinter(ctx.organization.id, job.printerId, {
      includeSandbox: true,
    });
    if (!printer || !isCloudPrinter(printer)) return undefined;
    const stored = await this.deps.store.jobs.getContent(ctx.organization.id, ctx.mode, id);
    if (!stored) return undefined;
    if (stored.preview) return stored.preview;
    const png = await previewOf(
      job,
      Buffer.from(stored.content),
      printer.connection,
      printer.paper,
    );
    await this.deps.store.jobs.savePreview(ctx.organization.id, id, png);
    return png;
  }

  /**
   * Label `index` (from 0) of a ZPL or EPL sandbox job, or of a pdf or image job for a label
   * printer, drawn from the bytes the printer gets (copies applied, documents as `^GF`/`GW`),
   * with how many labels that is and the commands not drawn; label 0 is kept like a receipt's
   * preview. NOT_FOUND as `preview`; VALIDATION_FAILED naming `label` past the last label.
   */
  async labelPreview(ctx: JobContext, id: string, index: number): Promise<LabelPreview> {
    const printed = await this.printedBytes(ctx, id);
    const language = printed && labelPreviewLanguage(printed.job);
    if (!printed || !language) return this.noPreview(ctx, id, 'label preview');
    const o = printed.job.options as VirtualJob['options'];
    const drawn = renderLabelPreview(
      printed.bytes,
      language,
      { labelSize: o.labelSize, dpi: o.dpi },
      index,
    );
    if (index === 0 && !printed.preview) {
      await this.deps.store.jobs.savePreview(ctx.organization.id, id, drawn.png);
    }
    return drawn;
  }

  /** Publishes one bus event per state change, carrying the job as the API shows it. */
  async publish(
    job: Job,
    events: ReadonlyArray<{ state: JobState; errorCode: string | null; at: number }>,
  ): Promise<void> {
    const resource = presentJob(job);
    delete resource.events;
    for (const event of events) {
      try {
        await this.deps.bus.publish({
          type: 'job.state_changed',
          organizationId: job.organizationId,
          mode: job.mode,
          jobId: job.id,
          state: event.state,
          errorCode: event.errorCode,
          at: new Date(event.at).toISOString(),
          job: resource,
        });
      } catch (err) {
        this.deps.logger.error({ err, jobId: job.id }, 'publishing a job event failed');
      }
    }
  }
}

function isCloudPrinter(printer: Printer | undefined): boolean {
  return printer?.connection === 'cloudprnt' || printer?.connection === 'sdp';
}

/** ZPL, EPL and the like cannot go to a printer that connects by itself. */
function cloudTargetProblem(
  printer: Printer | undefined,
  prepared: { type: string; encoding: string },
): FieldIssue | undefined {
  if (!printer || !isCloudPrinter(printer)) return undefined;
  return cloudJobProblem(printer.connection, prepared.type, prepared.encoding);
}

function idempotencyProblem(header: string | undefined, max: number): FieldIssue | undefined {
  if (header === undefined) return undefined;
  if (header.length === 0 || header.length > max) {
    return { path: 'Idempotency-Key', message: `Idempotency-Key: must be 1-${max} characters` };
  }
  return undefined;
}
