/**
 * createApp: the Express 5 application built from its dependencies (store, cache, bus, clock,
 * logger, mailer, config). Nothing here opens a database or a port; `serve` (server.ts) and the
 * tests wire the real or the test dependencies.
 */
import { join } from 'node:path';
import express, { Router, type Express, type RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { CacheStore } from './cache/types.js';
import type { EventBus } from './bus/events.js';
import type { CloudConfig } from './config.js';
import { DASHBOARD_OPERATIONS, dashboardRoutes } from './http/dashboard/index.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { apiKeyGuard } from './http/middleware/auth.js';
import { jsonBody } from './http/middleware/body.js';
import { requestId } from './http/middleware/request-id.js';
import { buildOpenApi } from './http/openapi.js';
import { webAppRoutes } from './http/web-app.js';
import {
  printerPullOperations,
  printerPullRoutes,
  PULL_PREFIX,
} from './http/printer-pull/routes.js';
import type { Guards, Operation } from './http/operation.js';
import { accountOperations, accountRoutes } from './http/v1/account.js';
import { inventoryOperations, inventoryRoutes } from './http/v1/inventory.js';
import { jobOperations, jobRoutes } from './http/v1/jobs.js';
import type { Clock } from './lib/clock.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { JobService } from './services/jobs.js';
import { HtmlLabelRenderer } from './sandbox/html-labels.js';
import { Sweeper } from './services/sweeper.js';
import { AgentGateway, type GatewayOptions } from './gateway/gateway.js';
import { gatewayOperations, gatewayRoutes } from './http/agent/activate-route.js';
import { MembershipService } from './accounts/members.js';
import { AccountService } from './accounts/service.js';
import { AgentConfigService } from './services/agent-config.js';
import {
  CloudPrinterService,
  type CloudPrinterTimings,
} from './services/cloud-printers/service.js';
import { CredentialService } from './services/credentials.js';
import { InventoryService } from './services/inventory.js';
import { PrinterGroupService } from './services/printer-groups.js';
import { OrganizationService } from './services/organizations.js';
import { SigningKeyService } from './services/signing-keys.js';
import { TemplateService } from './services/templates.js';
import { DeviceService } from './services/devices.js';
import { LiveEvents } from './services/live-events.js';
import type { EventStreamOptions } from './http/dashboard/event-routes.js';
import { JobDispatcher, type DispatcherOptions } from './services/dispatcher.js';
import type { Store } from './storage/store.js';
import { webhookOperations, webhookRoutes } from './http/v1/webhooks.js';
import {
  webhookDashboardOperations,
  webhookDashboardRoutes,
} from './http/dashboard/webhook-routes.js';
import { WebhookService } from './webhooks/service.js';
import type { WebhookOptions } from './webhooks/options.js';

/** Sends mail; defined beside its SMTP and .eml implementations (mail/mailer.ts). */
export type { Mailer };

export interface AppDeps {
  store: Store;
  cache: CacheStore;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  mailer?: Mailer;
  config: CloudConfig;
  /** The agent gateway's limits (heartbeat interval, liveness, dispatch pacing). */
  gateway?: Partial<GatewayOptions> & { dispatch?: Partial<DispatcherOptions> };
  /** Webhook limits; `allowPrivate` defaults to `!config.production`. */
  webhooks?: Partial<WebhookOptions>;
  /** The dashboard's event stream: heartbeat and session-check intervals. */
  events?: Partial<EventStreamOptions>;
  /** Printers without a computer: offline and unconfirmed delays (tests shorten nothing: the clock moves). */
  cloudPrinters?: Partial<CloudPrinterTimings>;
  /** The built web dashboard; default cloud/dashboard/dist. */
  dashboardDist?: string;
}

export interface CloudApp {
  app: Express;
  jobs: JobService;
  /** The sandbox's browser for HTML label previews (config.sandboxBrowser); `serve` closes it. */
  htmlLabels: HtmlLabelRenderer;
  sweeper: Sweeper;
  /** The agents' WebSocket server; `serve` attaches it to the HTTP server. */
  gateway: AgentGateway;
  devices: DeviceService;
  /** Printers that poll the cloud themselves; `serve` starts its sweep. */
  cloudPrinters: CloudPrinterService;
  /** Agents' configurations; `changed(orgId)` pushes them to the organization's agents. */
  agentConfig: AgentConfigService;
  /** Webhook endpoints and the delivery worker; `serve` calls `webhooks.start()`. */
  webhooks: WebhookService;
  /** The dashboard's live channel; `close()` ends its streams when the server stops. */
  live: LiveEvents;
  /** Every endpoint, as /openapi.json lists it. */
  operations: Operation[];
}

export const API_VERSION = '1.0.0';

/** Every public endpoint this build serves (the OpenAPI document lists exactly these). */
export const OPERATIONS: Operation[] = [
  ...Object.values(jobOperations),
  ...Object.values(inventoryOperations),
  ...Object.values(gatewayOperations),
  ...Object.values(accountOperations),
  ...Object.values(webhookOperations),
  ...DASHBOARD_OPERATIONS,
  ...Object.values(webhookDashboardOperations),
  ...Object.values(printerPullOperations),
  {
    method: 'get',
    path: '/openapi.json',
    summary: 'This description of the API (OpenAPI 3.1)',
    tag: 'Meta',
    auth: 'none',
    responses: { 200: { description: 'the OpenAPI document' } },
  },
];

/** Where the dashboard's endpoints live (every dashboard operation's path starts with one). */
export const DASHBOARD_PREFIXES = ['/auth/', '/orgs', '/invitations/', '/gallery/'];

/** `routers` as one handler that only sees requests whose path starts with one of `prefixes`. */
function onlyUnder(prefixes: readonly string[], routers: Router[]): RequestHandler {
  const group = Router();
  for (const router of routers) group.use(router);
  const handler: RequestHandler = (req, res, next) => {
    if (prefixes.some((prefix) => req.path.startsWith(prefix))) group(req, res, next);
    else next();
  };
  // Like a router, it shows its routes (the OpenAPI test lists every route the app serves).
  return Object.assign(handler, { stack: group.stack });
}

export function createApp(deps: AppDeps): CloudApp {
  const { store, cache, bus, clock, logger, config } = deps;
  const htmlLabels = new HtmlLabelRenderer({
    executablePath: config.sandboxBrowser,
    timeoutMs: config.limits.sandboxHtmlTimeoutMs,
  });
  const jobs = new JobService({ store, bus, clock, logger, config, htmlLabels });
  const sweeper = new Sweeper({ store, jobs, clock, logger, bus });
  const { dispatch, ...gatewayOptions } = deps.gateway ?? {};
  const dispatcher = new JobDispatcher({
    store,
    jobs,
    clock,
    logger,
    ...(dispatch ? { options: dispatch } : {}),
  });
  const devices = new DeviceService({ store, bus, clock, logger, groups: dispatcher.groups });
  const agentConfig = new AgentConfigService({ store, bus, logger, clock });
  const gateway = new AgentGateway({
    devices,
    dispatcher,
    agentConfig,
    jobs,
    bus,
    clock,
    logger,
    options: gatewayOptions,
  });
  // SMTP_URL: SMTP; unset: .eml files in DATA_DIR/mail (../shared/CONTRACT.md).
  const mailer =
    deps.mailer ??
    createMailer({ smtpUrl: process.env.SMTP_URL, dir: join(config.dataDir, 'mail') });
  const webhooks = new WebhookService({
    store,
    bus,
    clock,
    logger,
    mailer,
    options: { allowPrivate: !config.production, ...deps.webhooks },
  });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  // The services the routes call: no route holds the store.
  const agents = agentConfig;
  const accounts = new AccountService({
    store,
    clock,
    cache,
    mail: webhooks.mail,
    publicUrl: config.publicUrl,
  });
  const organizations = new OrganizationService({ store, clock, agents });
  const members = new MembershipService({ store, clock, accounts });
  const credentials = new CredentialService({ store, clock, logger });
  const signingKeys = new SigningKeyService({ store, clock, agents });
  const templates = new TemplateService({ store, clock, agents });
  const inventory = new InventoryService({ store, agents, revoker: devices });
  const cloudPrinters = new CloudPrinterService({
    store,
    bus,
    clock,
    logger,
    devices,
    jobs,
    publicUrl: config.publicUrl,
    ...(deps.cloudPrinters ? { timings: deps.cloudPrinters } : {}),
  });
  const printerGroups = new PrinterGroupService({ store, clock, agents, jobs, logger });

  const guards: Guards = {
    apiKey: apiKeyGuard({
      credentials,
      cache,
      clock,
      rateLimit: {
        perSecond: config.limits.rateLimitPerSecond,
        burst: config.limits.rateLimitBurst,
      },
    }),
  };

  app.use(requestId(logger));
  // The printers' own endpoints before the API's JSON check: they post JSON and forms.
  app.use(onlyUnder([PULL_PREFIX], [printerPullRoutes({ cloudPrinters, logger })]));
  app.use(jsonBody({ maxBytes: config.limits.maxBodyBytes }));

  // The busiest routes first, on the app itself: a job request walks no other route and enters
  // no nested router on its way.
  jobRoutes(jobs, guards, config.limits.defaultPageSize, app.router);
  const openapi = buildOpenApi(OPERATIONS, { version: API_VERSION, serverUrl: config.publicUrl });
  app.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use(accountRoutes({ organizations, database: store, cache, clock }, guards));
  const live = new LiveEvents({ bus, logger });
  const dashboard = dashboardRoutes({
    accounts,
    members,
    organizations,
    credentials,
    signingKeys,
    templates,
    inventory,
    cloudPrinters,
    printerGroups,
    jobs,
    live,
    clock,
    publicUrl: config.publicUrl,
    mailDelivery: mailer.delivery ?? 'smtp',
    defaultPageSize: config.limits.defaultPageSize,
    ...(deps.events ? { events: deps.events } : {}),
  });
  // The dashboard's many routes are only walked for dashboard paths: an API request skips them.
  app.use(
    onlyUnder(DASHBOARD_PREFIXES, [
      ...dashboard,
      webhookDashboardRoutes({
        accounts,
        members,
        organizations,
        webhooks,
        defaultPageSize: config.limits.defaultPageSize,
      }),
    ]),
  );
  app.use(
    inventoryRoutes({ inventory, templates, printerGroups }, guards, config.limits.defaultPageSize),
  );
  app.use(gatewayRoutes(devices, guards));
  app.use(webhookRoutes(webhooks, guards, config.limits.defaultPageSize));
  // The web dashboard last: it answers only pages and its assets, never an API path.
  app.use(webAppRoutes(deps.dashboardDist));
  app.use(notFoundHandler);
  app.use(errorHandler);

  return {
    app,
    jobs,
    htmlLabels,
    sweeper,
    gateway,
    devices,
    cloudPrinters,
    agentConfig,
    webhooks,
    live,
    operations: OPERATIONS,
  };
}
