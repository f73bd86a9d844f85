/**
 * Organizations: creating one (its owner and its sandbox printers), reading, changing its
 * settings (the local-mode ones reach its agents), deleting it, and its monthly usage.
 */
import { PrintwireError } from '@printwire/shared/errors/index';
import type { Clock } from '../lib/clock.js';
import { SANDBOX_PRINTERS } from '../sandbox/printers.js';
import type { Role } from '../storage/accounts.js';
import type { Store } from '../storage/store.js';
import type { Organization } from '../storage/types.js';
import type { ConfigNotifier } from './agent-config.js';

/** The settings agents receive in their configuration: a change is pushed to them. */
const LOCAL_SETTINGS = [
  'requireSignature',
  'unsignedModeEnabled',
  'devModeEnabled',
  'allowedOrigins',
  'localDownloadsToPrivateNetwork',
] as const;

export type OrganizationPatch = Parameters<Store['organizations']['update']>[1];

export class OrganizationService {
  constructor(
    private readonly deps: {
      store: Store;
      clock: Clock;
      /** Local-mode settings reach the organization's agents. */
      agents: ConfigNotifier;
    },
  ) {}

  /** A new organization with its sandbox printers; `ownerId` is its owner. */
  async create(input: { name: string; locale: string }, ownerId: string): Promise<Organization> {
    const now = this.deps.clock.now();
    const org = await this.deps.store.organizations.create(input, now, SANDBOX_PRINTERS);
    await this.deps.store.organizations.addMember(org.id, ownerId, 'owner', now);
    return org;
  }

  find(id: string): Promise<Organization | undefined> {
    return this.deps.store.organizations.get(id);
  }

  /** The organization; NOT_FOUND when there is none. */
  async get(id: string): Promise<Organization> {
    const org = await this.find(id);
    if (!org) throw new PrintwireError('NOT_FOUND', `no organization ${id}`);
    return org;
  }

  /** The user's organizations, each with the user's role. */
  listFor(userId: string): Promise<Array<{ organization: Organization; role: Role }>> {
    return this.deps.store.members.organizationsOf(userId);
  }

  /** Changes the settings (already validated); a local-mode setting reaches the agents. */
  async update(id: string, patch: OrganizationPatch): Promise<Organization> {
    const org = await this.deps.store.organizations.update(id, patch, this.deps.clock.now());
    if (!org) throw new PrintwireError('NOT_FOUND', 'no such organization');
    if (LOCAL_SETTINGS.some((key) => patch[key] !== undefined))
      await this.deps.agents.changed(org.id);
    return org;
  }

  /** Deletes the organization and everything in it; `confirm` must be its exact name. */
  async remove(id: string, confirm: string): Promise<void> {
    const org = await this.get(id);
    if (confirm !== org.name) {
      const message = 'confirm: type the organization’s exact name';
      throw new PrintwireError('VALIDATION_FAILED', message, {
        details: [{ path: 'confirm', message, rule: 'name_mismatch' }],
      });
    }
    await this.deps.store.members.deleteOrganization(id);
  }

  /** Live jobs created in the UTC month of `now` (what the monthly quota counts). */
  liveJobsThisMonth(id: string, now: number): Promise<number> {
    return this.deps.store.organizations.liveJobsThisMonth(id, now);
  }
}

/** The usage period (UTC month, `YYYY-MM`) of an instant: what the monthly quota counts in. */
export { usagePeriod } from '../storage/organizations.js';
