/**
 * Alert rules per organization and the alerts they open. Conditions, from bus events:
 * - device_offline: opens on device.offline, resolves on device.online (subject: the device);
 * - printer_offline: opens on printer.offline, resolves on printer.online (subject: the printer);
 * - paper_out: opens on printer.paper_out, resolves on printer.online;
 * - failure_rate: after each live job printed or failed, the share of failed jobs among the live
 *   jobs finished in the last `windowMinutes` (when at least `minJobs` finished) is compared with
 *   `thresholdPercent`: at or above opens, below resolves (subject: the organization). It is
 *   evaluated when a job finishes, not on a timer.
 * An alert opens once (one open alert per rule and subject) and resolves once. Channels: webhook
 * (alert.opened / alert.resolved to the endpoints subscribed to them) and email (the owners).
 */
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { BusEvent, EventBus } from '../cache/types.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import type { AlertRulesTable, AlertsTable } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import type { WebhookService } from './service.js';
import type { WebhookMailer } from './worker.js';

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

  constructor(
    private readonly deps: {
      store: Store;
      bus: EventBus;
      clock: Clock;
      logger: Logger;
      webhooks: WebhookService;
      mailer?: WebhookMailer | undefined;
      /** Rules per organization. Default 50. */
      maxRules?: number;
    },
  ) {}

  async start(): Promise<void> {
    this.unsubscribe ??= await this.deps.bus.subscribe((e) => this.accept(e));
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
    await this.chain;
  }

  /** Resolves once every event accepted so far has been evaluated. */
  settled(): Promise<void> {
    return this.chain;
  }

  accept(event: BusEvent): void {
    this.chain = this.chain
      .then(() => this.evaluate(event))
      .catch((err: unknown) => this.deps.logger.error({ err }, 'alerts: evaluation failed'));
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
    return presentRule(row);
  }

  async listRules(organizationId: string): Promise<AlertRuleView[]> {
    return (await this.deps.store.webhooks.rules(organizationId)).map(presentRule);
  }

  async deleteRule(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.store.webhooks.deleteRule(organizationId, id))) {
      throw new PrintwireError('NOT_FOUND', `no alert rule ${id}`);
    }
  }

  async listAlerts(organizationId: string, limit: number): Promise<AlertView[]> {
    return (await this.deps.store.webhooks.listAlerts(organizationId, limit)).map(presentAlert);
  }

  private async evaluate(event: BusEvent): Promise<void> {
    if (event.type === 'gateway.signal') return;
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

  private async failureRate(organizationId: string): Promise<void> {
    const rules = await this.deps.store.webhooks.rules(organizationId, ['failure_rate']);
    const now = this.deps.clock.now();
    for (const rule of rules) {
      const { total, failed } = await this.deps.store.webhooks.finishedJobs(
        organizationId,
        now - rule.windowMinutes! * 60_000,
      );
      if (total < rule.minJobs!) continue;
      const percent = (failed * 100) / total;
      const details = { failed, finished: total, percent: Math.round(percent * 10) / 10 };
      const action = percent >= rule.thresholdPercent! ? 'open' : 'resolve';
      await this.apply(rule, action, organizationId, details);
    }
  }

  private async apply(
    rule: AlertRulesTable,
    action: 'open' | 'resolve',
    subjectId: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    const { store, clock } = this.deps;
    const now = clock.now();
    const alert =
      action === 'open'
        ? await store.webhooks.openAlert({
            id: newId('alt', now),
            organizationId: rule.organizationId,
            ruleId: rule.id,
            kind: rule.kind,
            subjectId,
            state: 'open',
            details: JSON.stringify(details),
            openedAt: now,
            resolvedAt: null,
          })
        : await store.webhooks.resolveAlert(rule.id, subjectId, now);
    if (!alert) return;
    const view = presentAlert(alert);
    const channels = JSON.parse(rule.channels) as string[];
    const type = action === 'open' ? 'alert.opened' : 'alert.resolved';
    if (channels.includes('webhook')) {
      await this.deps.webhooks.record([
        { type, organizationId: rule.organizationId, mode: undefined, data: { alert: view } },
      ]);
    }
    if (channels.includes('email') && this.deps.mailer) {
      for (const to of await store.webhooks.ownerEmails(rule.organizationId)) {
        await this.deps.mailer.send({
          to,
          subject: `Printwire alert ${action === 'open' ? 'opened' : 'resolved'}: ${rule.kind} (${subjectId})`,
          text: `${type}: ${rule.kind} for ${subjectId} at ${new Date(now).toISOString()}.\n${JSON.stringify(view.details)}`,
        });
      }
    }
  }
}
