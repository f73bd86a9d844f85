/**
 * Alert rules per organization and the alerts they open. Conditions, from bus events:
 * - device_offline: opens on device.offline, resolves on device.online (subject: the device);
 * - printer_offline: opens on printer.offline, resolves on printer.online (subject: the printer);
 * - paper_out: opens on printer.paper_out, resolves on printer.online;
 * - failure_rate: the share of failed jobs among the live jobs finished in the last
 *   `windowMinutes`, when at least `minJobs` finished, at or above `thresholdPercent` (subject: the
 *   organization). Checked when a live job prints or fails, when the rule is created, at start, and
 *   on a timer at the moment the oldest job of the last check leaves the window: the share changes
 *   then too, with no event, so an alert opened by a burst of failures resolves once the burst is
 *   out of the window, and one opens as soon as the printed jobs that kept it closed leave it.
 * An alert opens once (one open alert per rule and subject) and resolves once. Channels: webhook
 * (alert.opened / alert.resolved, written to the outbox with the alert, to the endpoints subscribed
 * to them) and email (one e-mail per owner, written to the mail outbox with the alert and sent by
 * the mail sender: retried with backoff, at least once).
 */
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { BusEvent, EventBus } from '../bus/events.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { AlertRulesTable, AlertsTable } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import type { AlertMail } from '../storage/webhooks.js';
import type { MailSender } from '../mail/sender.js';

export const ALERT_KINDS = [
  'device_offline',
  'printer_offline',
  'paper_out',
  'failure_rate',
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];
export const ALERT_CHANNELS = ['webhook', 'email'] as const;

export interface AlertRuleInput {
  kind: AlertKind;
  channels: Array<(typeof ALERT_CHANNELS)[number]>;
  /** failure_rate only: 1-100. */
  thresholdPercent?: number | undefined;
  /** failure_rate only: 1-1440. */
  windowMinutes?: number | undefined;
  /** failure_rate only: jobs that must have finished in the window. Default 1. */
  minJobs?: number | undefined;
}

export interface AlertView {
  id: string;
  ruleId: string;
  kind: string;
  subjectId: string;
  state: 'open' | 'resolved';
  details: Record<string, unknown>;
  openedAt: string;
  resolvedAt: string | null;
}

export interface AlertRuleView {
  id: string;
  kind: string;
  channels: string[];
  thresholdPercent: number | null;
  windowMinutes: number | null;
  minJobs: number | null;
  createdAt: string;
}

export function presentAlert(a: AlertsTable): AlertView {
  return {
    id: a.id,
    ruleId: a.ruleId,
    kind: a.kind,
    subjectId: a.subjectId,
    state: a.state as AlertView['state'],
    details: JSON.parse(a.details) as Record<string, unknown>,
    openedAt: new Date(a.openedAt).toISOString(),
    resolvedAt: a.resolvedAt === null ? null : new Date(a.resolvedAt).toISOString(),
  };
}

export function presentRule(r: AlertRulesTable): AlertRuleView {
  return {
    id: r.id,
    kind: r.kind,
    channels: JSON.parse(r.channels) as string[],
    thresholdPercent: r.thresholdPercent,
    windowMinutes: r.windowMinutes,
    minJobs: r.minJobs,
    createdAt: new Date(r.createdAt).toISOString(),
  };
}

/** What a bus event means for alerts: open or resolve rules of `kinds` for `subjectId`. */
type Change = { action: 'open' | 'resolve'; kinds: AlertKind[]; subjectId: string };

function changesOf(event: BusEvent): Change[] {
  switch (event.type) {
    case 'device.offline':
      return [{ action: 'open', kinds: ['device_offline'], subjectId: event.deviceId }];
    case 'device.online':
      return [{ action: 'resolve', kinds: ['device_offline'], subjectId: event.deviceId }];
    case 'printer.offline':
      return event.printerId
        ? [{ action: 'open', kinds: ['printer_offline'], subjectId: event.printerId }]
        : [];
    case 'printer.paper_out':
      return event.printerId
        ? [{ action: 'open', kinds: ['paper_out'], subjectId: event.printerId }]
        : [];
    case 'printer.online':
      return event.printerId
        ? [
            {
              action: 'resolve',
              kinds: ['printer_offline', 'paper_out'],
              subjectId: event.printerId,
            },
          ]
        : [];
    default:
      return [];
  }
}

export class AlertService {
  private chain: Promise<void> = Promise.resolve();
  private unsubscribe: (() => Promise<void>) | undefined;
  /** When each organization's failure-rate rules must be checked again (clock milliseconds). */
  private readonly recheckAt = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private readonly maxTimerMs: number;

  constructor(
    private readonly deps: {
      store: Store;
      bus: EventBus;
      clock: Clock;
      logger: Logger;
      /** The webhook intake, run after an alert change so alert.* events go out at once. */
      webhooks: { intake(): Promise<void> };
      /**
       * Set when mail is configured: the email channel writes the owners' e-mails with the alert,
       * and this sender is nudged to send them.
       */
      mail?: MailSender | undefined;
      /** Rules per organization. Default 50. */
      maxRules?: number;
      /**
       * Longest real-time wait of the re-check timer, so that a clock that is not the system's
       * (or jumps) is still followed. Default 60 s.
       */
      maxTimerMs?: number;
    },
  ) {
    this.maxTimerMs = deps.maxTimerMs ?? 60_000;
  }

  /** Subscribes to the bus and checks every failure-rate rule once (arming the timer). */
  async start(): Promise<void> {
    this.unsubscribe ??= await this.deps.bus.subscribe((e) => this.accept(e));
    this.stopped = false;
    this.enqueue(async () => {
      const organizations = await this.deps.store.webhooks.organizationsWithRules('failure_rate');
      for (const organizationId of organizations) await this.failureRate(organizationId);
    });
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.stopped = true;
    clearTimeout(this.timer);
    await this.chain;
  }

  /** Resolves once every event accepted so far has been evaluated. */
  settled(): Promise<void> {
    return this.chain;
  }

  accept(event: BusEvent): void {
    this.enqueue(() => this.evaluate(event));
  }

  /**
   * Checks the failure-rate rules of every organization whose re-check time has come (the timer
   * calls it; tests call it after moving the clock). Resolves once they are checked.
   */
  recheck(): Promise<void> {
    return this.enqueue(async () => {
      const now = this.deps.clock.now();
      const due = [...this.recheckAt].filter(([, at]) => at <= now).map(([id]) => id);
      for (const organizationId of due) {
        this.recheckAt.delete(organizationId);
        await this.failureRate(organizationId);
      }
      this.arm();
    });
  }

  /**
   * When the organization's failure-rate rules are checked again without an event (clock
   * milliseconds); undefined: not until a live job finishes. Without an organization: the next
   * re-check of any, what the timer waits for.
   */
  nextRecheckAt(organizationId?: string): number | undefined {
    if (organizationId !== undefined) return this.recheckAt.get(organizationId);
    let next: number | undefined;
    for (const at of this.recheckAt.values()) if (next === undefined || at < next) next = at;
    return next;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.chain = this.chain
      .then(step)
      .catch((err: unknown) => this.deps.logger.error({ err }, 'alerts: evaluation failed'));
    return this.chain;
  }

  /** Wakes at the next re-check, or after `maxTimerMs` when that is later. */
  private arm(): void {
    clearTimeout(this.timer);
    const next = this.nextRecheckAt();
    if (this.stopped || next === undefined) return;
    const delay = Math.min(Math.max(0, next - this.deps.clock.now()), this.maxTimerMs);
    this.timer = setTimeout(() => void this.recheck(), delay);
    this.timer.unref();
  }

  async createRule(organizationId: string, input: AlertRuleInput): Promise<AlertRuleView> {
    const rate = input.kind === 'failure_rate';
    if (rate && (input.thresholdPercent === undefined || input.windowMinutes === undefined)) {
      throw new PrintwireError(
        'VALIDATION_FAILED',
        'failure_rate rules need thresholdPercent and windowMinutes',
      );
    }
    const now = this.deps.clock.now();
    const row: AlertRulesTable = {
      id: newId('alr', now),
      organizationId,
      kind: input.kind,
      channels: JSON.stringify([...new Set(input.channels)]),
      thresholdPercent: rate ? input.thresholdPercent! : null,
      windowMinutes: rate ? input.windowMinutes! : null,
      minJobs: rate ? (input.minJobs ?? 1) : null,
      createdAt: now,
    };
    const max = this.deps.maxRules ?? 50;
    if (!(await this.deps.store.webhooks.createRule(row, max))) {
      throw new PrintwireError(
        'VALIDATION_FAILED',
        `an organization has at most ${max} alert rules`,
      );
    }
    if (rate) {
      // The window may already hold enough failures; the check also schedules the timer. The
      // other instances check too, so the timer does not depend on this one staying up.
      await this.enqueue(() => this.failureRate(organizationId));
      await this.announceRules(organizationId);
    }
    return presentRule(row);
  }

  async listRules(organizationId: string): Promise<AlertRuleView[]> {
    return (await this.deps.store.webhooks.rules(organizationId)).map(presentRule);
  }

  async deleteRule(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.store.webhooks.deleteRule(organizationId, id))) {
      throw new PrintwireError('NOT_FOUND', `no alert rule ${id}`);
    }
    // Every instance checks again: a deleted failure-rate rule no longer keeps a timer anywhere.
    await this.enqueue(() => this.failureRate(organizationId));
    await this.announceRules(organizationId);
  }

  /** Tells every instance that the organization's rules changed (best effort: the bus). */
  private async announceRules(organizationId: string): Promise<void> {
    try {
      await this.deps.bus.publish({ type: 'alerts.rules_changed', organizationId });
    } catch (err) {
      this.deps.logger.warn({ err, organizationId }, 'alerts: announcing a rule change failed');
    }
  }

  async listAlerts(organizationId: string, limit: number): Promise<AlertView[]> {
    return (await this.deps.store.webhooks.listAlerts(organizationId, limit)).map(presentAlert);
  }

  private async evaluate(event: BusEvent): Promise<void> {
    if (event.type === 'gateway.signal') return;
    if (event.type === 'alerts.rules_changed') {
      await this.failureRate(event.organizationId);
      return;
    }
    if (event.type === 'job.state_changed') {
      if (event.mode === 'live' && (event.state === 'failed' || event.state === 'printed')) {
        await this.failureRate(event.organizationId);
      }
      return;
    }
    const changes = changesOf(event);
    if (changes.length === 0) return;
    const rules = await this.deps.store.webhooks.rules(event.organizationId);
    for (const change of changes) {
      for (const rule of rules.filter((r) => change.kinds.includes(r.kind as AlertKind))) {
        await this.apply(rule, change.action, change.subjectId, { event: event.type });
      }
    }
  }

  /**
   * Opens or resolves each failure-rate rule of the organization, and schedules the next check
   * for when the oldest finished job counted leaves its window (one millisecond after the window's
   * length: `finishedAt >= now - window` still counts it at exactly that length).
   */
  private async failureRate(organizationId: string): Promise<void> {
    const rules = await this.deps.store.webhooks.rules(organizationId, ['failure_rate']);
    const now = this.deps.clock.now();
    let next: number | undefined;
    for (const rule of rules) {
      const windowMs = rule.windowMinutes! * 60_000;
      const { total, failed, oldestFinishedAt } = await this.deps.store.webhooks.finishedJobs(
        organizationId,
        now - windowMs,
      );
      if (oldestFinishedAt !== null) {
        const leaves = oldestFinishedAt + windowMs + 1;
        if (next === undefined || leaves < next) next = leaves;
      }
      const percent = total === 0 ? 0 : (failed * 100) / total;
      const holds = total >= rule.minJobs! && percent >= rule.thresholdPercent!;
      const details = { failed, finished: total, percent: Math.round(percent * 10) / 10 };
      await this.apply(rule, holds ? 'open' : 'resolve', organizationId, details);
    }
    if (next === undefined) this.recheckAt.delete(organizationId);
    else this.recheckAt.set(organizationId, next);
    this.arm();
  }

  private async apply(
    rule: AlertRulesTable,
    action: 'open' | 'resolve',
    subjectId: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const channels = JSON.parse(rule.channels) as string[];
    const announce = channels.includes('webhook');
    const type = action === 'open' ? 'alert.opened' : 'alert.resolved';
    const email = channels.includes('email') ? this.deps.mail : undefined;
    // Written with the alert, to the owners of that moment; the mail sender sends it.
    const mail: AlertMail | undefined = email
      ? (stored) => ({
          subject: `Printwire alert ${action === 'open' ? 'opened' : 'resolved'}: ${rule.kind} (${subjectId})`,
          text: `${type}: ${rule.kind} for ${subjectId} at ${new Date(now).toISOString()}.\n${JSON.stringify(presentAlert(stored).details)}`,
        })
      : undefined;
    const alert =
      action === 'open'
        ? await store.webhooks.openAlert(
            {
              id: newId('alt', now),
              organizationId: rule.organizationId,
              ruleId: rule.id,
              kind: rule.kind,
              subjectId,
              state: 'open',
              details: JSON.stringify(details),
              openedAt: now,
              resolvedAt: null,
            },
            announce,
            mail,
          )
        : await store.webhooks.resolveAlert(rule.id, subjectId, now, announce, mail);
    if (!alert) return;
    // The event and the e-mails were committed with the alert; the intake and the sender send them.
    if (announce) void this.deps.webhooks.intake();
    email?.nudge();
  }
}
