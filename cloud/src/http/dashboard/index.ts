/**
 * The dashboard API: accounts, organizations, members, invitations, billing, API keys and
 * activation codes. Mounted by createApp; its operations are listed in /openapi.json.
 */
import type { Router } from 'express';
import { AccountService, type AccountLifetimes, type MailNudge } from '../../accounts/service.js';
import type { ThrottleOptions } from '../../accounts/throttle.js';
import type { CacheStore } from '../../cache/types.js';
import type { Operation } from '../operation.js';
import type { Clock } from '../../lib/clock.js';
import type { ConfigNotifier } from '../../services/agent-config.js';
import type { Store } from '../../storage/store.js';
import { authOperations, authRoutes } from './auth-routes.js';
import { deviceOperations, deviceRoutes, type DeviceRevoker } from './device-routes.js';
import { eventOperations, eventRoutes, type EventStreamOptions } from './event-routes.js';
import { jobDashboardOperations, jobDashboardRoutes } from './job-routes.js';
import { printerOperations, printerRoutes } from './printer-routes.js';
import type { JobService } from '../../services/jobs.js';
import type { LiveEvents } from '../../services/live-events.js';
import { orgOperations, orgRoutes } from './org-routes.js';
import { signingKeyOperations, signingKeyRoutes } from './signing-key-routes.js';
import { templateOperations, templateRoutes } from './template-routes.js';

export const DASHBOARD_OPERATIONS: Operation[] = [
  ...Object.values(authOperations),
  ...Object.values(orgOperations),
  ...Object.values(signingKeyOperations),
  ...Object.values(deviceOperations),
  ...Object.values(templateOperations),
  ...Object.values(jobDashboardOperations),
  ...Object.values(printerOperations),
  ...Object.values(eventOperations),
];

export interface DashboardDeps {
  store: Store;
  clock: Clock;
  /** The mail sender, nudged when account e-mails were written to the mail outbox. */
  mail: MailNudge | undefined;
  /** PUBLIC_URL: the start of mail links; https makes the refresh cookie Secure. */
  publicUrl: string;
  /** The app's cache store: holds the failed-login throttles (shared across instances by Redis). */
  cache: CacheStore;
  /** Tells the organization's agents that their configuration changed (local mode). */
  agentConfig?: ConfigNotifier;
  /** The gateway side of deactivation (DeviceService): revokes the token, closes the socket. */
  devices?: DeviceRevoker;
  /** The /v1 job service: the dashboard's jobs go through it. */
  jobs: JobService;
  /** The live channel's side of the bus (GET /orgs/{orgId}/events). */
  live: LiveEvents;
  /** Page size of lists when `limit` is not given. */
  defaultPageSize: number;
  /** The event stream's heartbeat and session checks. */
  events?: Partial<EventStreamOptions>;
  lifetimes?: Partial<AccountLifetimes>;
  accountThrottle?: ThrottleOptions;
  addressThrottle?: ThrottleOptions;
}

export function dashboardRoutes(deps: DashboardDeps): {
  routers: Router[];
  accounts: AccountService;
} {
  const accounts = new AccountService(deps);
  const agents: ConfigNotifier = deps.agentConfig ?? { changed: () => Promise.resolve() };
  const secureCookies = deps.publicUrl.startsWith('https:');
  return {
    accounts,
    routers: [
      authRoutes(accounts, { secureCookies }),
      orgRoutes({ store: deps.store, clock: deps.clock, accounts, agents }),
      signingKeyRoutes({ store: deps.store, clock: deps.clock, accounts, agents }),
      deviceRoutes({ store: deps.store, accounts, revoker: deps.devices }),
      templateRoutes({ store: deps.store, clock: deps.clock, accounts, agents }),
      jobDashboardRoutes({
        store: deps.store,
        accounts,
        jobs: deps.jobs,
        defaultPageSize: deps.defaultPageSize,
      }),
      printerRoutes({
        store: deps.store,
        accounts,
        jobs: deps.jobs,
        agents,
        clockNow: () => deps.clock.now(),
        defaultPageSize: deps.defaultPageSize,
      }),
      eventRoutes({
        store: deps.store,
        accounts,
        live: deps.live,
        ...(deps.events ? { options: deps.events } : {}),
      }),
    ],
  };
}
