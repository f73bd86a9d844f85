/**
 * Webhook endpoints (create, list, update, delete, rotate, enable) and the event intake. Events
 * are written to the outbox in the transaction of the change they announce (storage/
 * webhook-outbox.ts); the intake turns each into one delivery per matching enabled endpoint and
 * deletes it, in one transaction, before any attempt; the worker then sends the deliveries. The
 * intake runs when a bus event announces a change, on a short timer, and at start (events a crash
 * left behind).
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { BusEvent, EventBus } from '../bus/events.js';
import type { Clock } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import { PLAN_RULES } from '../services/plans.js';
import { decodeCursor, toPage } from '../storage/cursor.js';
import type { WebhookDeliveriesTable } from '../storage/schema.js';
import type { Store } from '../storage/store.js';
import type { Mode, Organization, Plan } from '../storage/types.js';
import type { OutboxEvent } from '../storage/webhook-outbox.js';
import type { WebhookDelivery, WebhookEndpoint } from '../storage/webhooks.js';
import { AlertService } from '../alerts/service.js';
import { announcesWebhookEvent, envelope, presentData } from './events.js';
import type { Mailer } from '../mail/mailer.js';
import { MailSender, type MailSenderOptions } from '../mail/sender.js';
import { DEFAULT_WEBHOOK_OPTIONS, type WebhookOptions } from './options.js';
import { WebhookSender } from './sender.js';
import { urlProblem } from './url-guard.js';
import { DeliveryWorker } from './worker.js';
import { CoalescedPass } from '../lib/coalesced.js';

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  type: string;
  state: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  durationMs: number | null;
  error: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  /** The JSON body sent, exactly as signed (a retry and a resend send it again). */
  body: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function presentWebhook(e: WebhookEndpoint): WebhookView {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    description: e.description,
    enabled: e.enabled,
    disabledReason: e.disabledReason,
    createdAt: iso(e.createdAt)!,
    updatedAt: iso(e.updatedAt)!,
  };
}

export function presentDelivery(d: WebhookDelivery): DeliveryView {
  return {
    id: d.id,
    eventId: d.eventId,
    type: d.eventType,
    state: d.state,
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    durationMs: d.durationMs,
    error: d.error,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
    createdAt: iso(d.createdAt)!,
    body: d.body,
  };
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function deliveryRow(
  endpoint: WebhookEndpoint,
  event: { id: string; type: string; createdAt: number },
  body: string,
  now: number,
): WebhookDeliveriesTable {
  return {
    id: newId('whd', now),
    endpointId: endpoint.id,
    organizationId: endpoint.organizationId,
    eventId: event.id,
    eventType: event.type,
    body,
    state: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    lastAttemptAt: null,
    responseStatus: null,
    durationMs: null,
    error: null,
    createdAt: event.createdAt,
  };
}

/**
 * One delivery per event and enabled endpoint of its organization that subscribes to it, in its
 * mode (an event without a mode: either). Pure: the outbox intake may run it twice on SQLite. An
 * event whose data cannot be presented (written by another version, say) gets no delivery and is
 * reported to `unreadable`, so that it cannot hold up every event behind it.
 */
export function deliveriesFor(
  events: OutboxEvent[],
  endpoints: WebhookEndpoint[],
  now: number,
  unreadable?: (event: OutboxEvent, err: unknown) => void,
): WebhookDeliveriesTable[] {
  const byOrganization = new Map<string, WebhookEndpoint[]>();
  for (const e of endpoints) {
    const list = byOrganization.get(e.organizationId);
    if (list) list.push(e);
    else byOrganization.set(e.organizationId, [e]);
  }
  const rows: WebhookDeliveriesTable[] = [];
  for (const event of events) {
    const targets = (byOrganization.get(event.organizationId) ?? []).filter(
      (e) => (event.mode === null || e.mode === event.mode) && e.events.includes(event.type),
    );
    if (targets.length === 0) continue;
    let body: string;
    try {
      const data = presentData(event.data);
      body = envelope(event.id, event.type, event.createdAt, event.organizationId, data);
    } catch (err) {
      unreadable?.(event, err);
      continue;
    }
    for (const endpoint of targets) rows.push(deliveryRow(endpoint, event, body, now));
  }
  return rows;
}

export interface WebhookInput {
  url: string;
  events: string[];
  description?: string | null | undefined;
}

export class WebhookService {
  readonly options: WebhookOptions;
  readonly worker: DeliveryWorker;
  /** Alert rules and alerts; they send alert.opened / alert.resolved through this service. */
  readonly alerts: AlertService;
  /**
   * Sends the owners' e-mails (alerts, disabled endpoints) from the mail outbox; undefined
   * without a mailer (then none are written).
   */
  readonly mail: MailSender | undefined;
  private readonly sender: WebhookSender;
  private readonly intakes = new CoalescedPass(
    () => this.intakeAll(),
    (err) => this.deps.logger.error({ err }, 'webhook: storing deliveries failed'),
  );
  private intakeTimer: NodeJS.Timeout | undefined;
  private stopped = true;
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly deps: {
      store: Store;
      bus: EventBus;
      clock: Clock;
      logger: Logger;
      mailer?: Mailer | undefined;
      options?: Partial<WebhookOptions> | undefined;
      /** The mail sender's interval, batch, lease and retries. */
      mailOptions?: Partial<MailSenderOptions> | undefined;
    },
  ) {
    this.options = { ...DEFAULT_WEBHOOK_OPTIONS, ...deps.options };
    this.sender = new WebhookSender({
      allowPrivate: this.options.allowPrivate,
      timeoutMs: this.options.timeoutMs,
      maxSocketsPerHost: this.options.maxConcurrentPerEndpoint,
    });
    this.mail = deps.mailer
      ? new MailSender({
          store: deps.store,
          clock: deps.clock,
          logger: deps.logger,
          mailer: deps.mailer,
          options: deps.mailOptions,
        })
      : undefined;
    this.worker = new DeliveryWorker({
      store: deps.store,
      clock: deps.clock,
      logger: deps.logger,
      sender: this.sender,
      options: this.options,
      ...(this.mail ? { mail: this.mail } : {}),
    });
    this.alerts = new AlertService({
      store: deps.store,
      bus: deps.bus,
      clock: deps.clock,
      logger: deps.logger,
      webhooks: this,
      mail: this.mail,
    });
  }

  /**
   * Subscribes to the bus, runs the intake at once (events a crash left in the outbox) and then
   * on its timer, and starts the alerts, the worker and the mail sender (which also looks at
   * once: e-mails a crash left in the mail outbox).
   */
  async start(): Promise<void> {
    this.unsubscribe ??= await this.deps.bus.subscribe((event) => this.accept(event));
    this.stopped = false;
    this.scheduleIntake(0);
    await this.alerts.start();
    this.worker.start();
    this.mail?.start();
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.stopped = true;
    clearTimeout(this.intakeTimer);
    await this.alerts.stop();
    await this.intakes.idle();
    await this.worker.stop();
    await this.mail?.stop();
    this.sender.close();
  }

  /** Resolves once every outbox event committed before the call is stored as deliveries. */
  settled(): Promise<void> {
    return this.intake();
  }

  /** A bus event announcing a change that may have written outbox events: intake now. */
  accept(event: BusEvent): void {
    if (announcesWebhookEvent(event)) void this.intake();
  }

  /**
   * Moves every outbox event into deliveries, batch by batch, and nudges the worker; concurrent
   * calls coalesce into one more pass. Failures are logged and left to the next pass.
   */
  intake(): Promise<void> {
    return this.intakes.run();
  }

  private async intakeAll(): Promise<void> {
    const { store, clock } = this.deps;
    const limit = this.options.batchSize;
    for (;;) {
      const now = clock.now();
      const taken = await store.webhooks.outbox.drain(limit, (events, endpoints) =>
        deliveriesFor(events, endpoints, now, (event, err) =>
          this.deps.logger.error(
            { err, eventId: event.id, type: event.type },
            'webhook: an outbox event could not be presented; it is dropped',
          ),
        ),
      );
      if (taken.deliveries > 0) this.worker.nudge();
      if (taken.events < limit) return;
    }
  }

  private scheduleIntake(ms: number): void {
    clearTimeout(this.intakeTimer);
    this.intakeTimer = setTimeout(() => {
      void this.intake().finally(() => {
        if (!this.stopped) this.scheduleIntake(this.options.outboxIntervalMs);
      });
    }, ms);
    this.intakeTimer.unref();
  }

  /** 403 PLAN_REQUIRED below Business. */
  requirePlan(organization: Organization): void {
    if (!PLAN_RULES[organization.plan as Plan]?.webhooks) {
      throw new PrintwireError(
        'PLAN_REQUIRED',
        `webhooks need the Business plan or above (this organization is on ${organization.plan})`,
      );
    }
  }

  private checkUrl(url: string): void {
    const problem = urlProblem(url, this.options);
    if (problem) {
      throw new PrintwireError('VALIDATION_FAILED', `url: ${problem}`, {
        details: [{ path: 'url', message: `url: ${problem}` }],
      });
    }
  }

  async create(
    organization: Organization,
    mode: Mode,
    input: WebhookInput,
  ): Promise<{ webhook: WebhookView; secret: string }> {
    this.requirePlan(organization);
    this.checkUrl(input.url);
    const now = this.deps.clock.now();
    const secret = newSecret();
    const created = await this.deps.store.webhooks.createEndpoint(
      {
        id: newId('whk', now),
        organizationId: organization.id,
        mode,
        url: input.url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        secret,
        createdAt: now,
        updatedAt: now,
      },
      this.options.maxEndpointsPerOrganization,
    );
    if (created === 'limit') {
      throw new PrintwireError(
        'VALIDATION_FAILED',
        `an organization has at most ${this.options.maxEndpointsPerOrganization} webhook endpoints`,
      );
    }
    return { webhook: presentWebhook(created), secret };
  }

  async list(
    organization: Organization,
    mode: Mode | undefined,
    page: { cursor?: string | undefined; limit: number },
  ): Promise<{ data: WebhookView[]; nextCursor: string | null }> {
    this.requirePlan(organization);
    const rows = await this.deps.store.webhooks.listEndpoints(organization.id, mode, {
      ...(page.cursor ? { after: decodeCursor(page.cursor) } : {}),
      limit: page.limit + 1,
    });
    return toPage(rows, page.limit, presentWebhook);
  }

  /** The endpoint, in `mode` when given (a key sees only its own mode's endpoints). */
  async get(organizationId: string, id: string, mode?: Mode): Promise<WebhookEndpoint> {
    const endpoint = await this.deps.store.webhooks.getEndpoint(organizationId, id);
    if (!endpoint || (mode && endpoint.mode !== mode)) {
      throw new PrintwireError('NOT_FOUND', `no webhook endpoint ${id}`);
    }
    return endpoint;
  }

  async delete(organization: Organization, id: string, mode?: Mode): Promise<WebhookView> {
    this.requirePlan(organization);
    const endpoint = await this.get(organization.id, id, mode);
    await this.deps.store.webhooks.deleteEndpoint(organization.id, id);
    return presentWebhook(endpoint);
  }

  /** Dashboard update; `enabled: true` re-enables a disabled endpoint (clearing its reason). */
  async update(
    organization: Organization,
    id: string,
    patch: Partial<WebhookInput> & { enabled?: boolean | undefined },
  ): Promise<WebhookView> {
    this.requirePlan(organization);
    await this.get(organization.id, id);
    if (patch.url !== undefined) this.checkUrl(patch.url);
    const updated = await this.deps.store.webhooks.updateEndpoint(
      organization.id,
      id,
      {
        ...(patch.url !== undefined ? { url: patch.url } : {}),
        ...(patch.events !== undefined ? { events: [...new Set(patch.events)] } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.enabled !== undefined
          ? patch.enabled
            ? { enabled: true, disabledReason: null, failingSince: null }
            : { enabled: false, disabledReason: 'disabled by a member' }
          : {}),
      },
      this.deps.clock.now(),
    );
    if (patch.enabled) this.worker.nudge();
    return presentWebhook(updated!);
  }

  /** A new secret; every attempt from now on is signed with it. */
  async rotateSecret(organization: Organization, id: string): Promise<{ secret: string }> {
    this.requirePlan(organization);
    await this.get(organization.id, id);
    const secret = newSecret();
    await this.deps.store.webhooks.updateEndpoint(
      organization.id,
      id,
      { secret },
      this.deps.clock.now(),
    );
    return { secret };
  }

  async deliveries(
    organization: Organization,
    id: string,
    page: { cursor?: string | undefined; limit: number },
  ): Promise<{ data: DeliveryView[]; nextCursor: string | null }> {
    await this.get(organization.id, id);
    const rows = await this.deps.store.webhooks.listDeliveries(organization.id, id, {
      ...(page.cursor ? { after: decodeCursor(page.cursor) } : {}),
      limit: page.limit + 1,
    });
    return toPage(rows, page.limit, presentDelivery);
  }

  /** Sends the delivery again: same event id, same body, a fresh retry schedule. */
  async resend(organization: Organization, id: string, deliveryId: string): Promise<DeliveryView> {
    this.requirePlan(organization);
    const delivery = await this.deps.store.webhooks.getDelivery(organization.id, deliveryId);
    if (!delivery || delivery.endpointId !== id) {
      throw new PrintwireError('NOT_FOUND', `no delivery ${deliveryId} of webhook endpoint ${id}`);
    }
    await this.deps.store.webhooks.requeue(organization.id, deliveryId, this.deps.clock.now());
    this.worker.nudge();
    return presentDelivery(
      (await this.deps.store.webhooks.getDelivery(organization.id, deliveryId))!,
    );
  }

  /** Queues a `webhook.test` event to this endpoint only. */
  async sendTest(organization: Organization, id: string): Promise<DeliveryView> {
    this.requirePlan(organization);
    const endpoint = await this.get(organization.id, id);
    const now = this.deps.clock.now();
    const event = { id: newId('evt', now), type: 'webhook.test', createdAt: now };
    const body = envelope(event.id, event.type, now, organization.id, {});
    const row = deliveryRow(endpoint, event, body, now);
    await this.deps.store.webhooks.insertDeliveries([row]);
    this.worker.nudge();
    return presentDelivery(row as WebhookDelivery);
  }
}
