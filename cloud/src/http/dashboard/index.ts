/**
 * The dashboard API: accounts, organizations, members, invitations, billing, API keys and
 * activation codes. Mounted by createApp; its operations are listed in /openapi.json.
 */
import type { Router } from 'express';
import type { MembershipService } from '../../accounts/members.js';
import type { AccountService } from '../../accounts/service.js';
import type { CredentialService } from '../../services/credentials.js';
import type { InventoryService } from '../../services/inventory.js';
import type { OrganizationService } from '../../services/organizations.js';
import type { SigningKeyService } from '../../services/signing-keys.js';
import type { TemplateService } from '../../services/templates.js';
import type { Clock } from '../../lib/clock.js';
import type { Operation } from '../operation.js';
import { authOperations, authRoutes } from './auth-routes.js';
import { deviceOperations, deviceRoutes } from './device-routes.js';
import { eventOperations, eventRoutes, type EventStreamOptions } from './event-routes.js';
import { jobDashboardOperations, jobDashboardRoutes } from './job-routes.js';
import { printerOperations, printerRoutes } from './printer-routes.js';
import { printerGroupOperations, printerGroupRoutes } from './printer-group-routes.js';
import type { PrinterGroupService } from '../../services/printer-groups.js';
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
  ...Object.values(printerGroupOperations),
  ...Object.values(eventOperations),
];

/** The services the dashboard's routes call (createApp builds them). */
export interface DashboardDeps {
  accounts: AccountService;
  members: MembershipService;
  organizations: OrganizationService;
  credentials: CredentialService;
  signingKeys: SigningKeyService;
  templates: TemplateService;
  inventory: InventoryService;
  printerGroups: PrinterGroupService;
  /** The /v1 job service: the dashboard's jobs go through it. */
  jobs: JobService;
  /** The live channel's side of the bus (GET /orgs/{orgId}/events). */
  live: LiveEvents;
  clock: Clock;
  /** PUBLIC_URL: https makes the refresh cookie Secure. */
  publicUrl: string;
  /** How mail leaves (the sign-up answer says so): see `Mailer.delivery`. */
  mailDelivery: 'smtp' | 'files';
  /** Page size of lists when `limit` is not given. */
  defaultPageSize: number;
  /** The event stream's heartbeat and session checks. */
  events?: Partial<EventStreamOptions>;
}

export function dashboardRoutes(deps: DashboardDeps): Router[] {
  const { accounts, members, organizations, inventory, jobs, defaultPageSize } = deps;
  const secureCookies = deps.publicUrl.startsWith('https:');
  return [
    authRoutes(accounts, { secureCookies, mailDelivery: deps.mailDelivery }),
    orgRoutes({
      clock: deps.clock,
      accounts,
      organizations,
      members,
      credentials: deps.credentials,
    }),
    signingKeyRoutes({ accounts, members, signingKeys: deps.signingKeys }),
    deviceRoutes({ accounts, members, inventory }),
    templateRoutes({ accounts, members, templates: deps.templates }),
    jobDashboardRoutes({ accounts, members, organizations, jobs, defaultPageSize }),
    printerRoutes({
      accounts,
      members,
      organizations,
      inventory,
      jobs,
      clockNow: () => deps.clock.now(),
      defaultPageSize,
    }),
    printerGroupRoutes({ accounts, members, groups: deps.printerGroups }),
    eventRoutes({
      accounts,
      members,
      live: deps.live,
      ...(deps.events ? { options: deps.events } : {}),
    }),
  ];
}
