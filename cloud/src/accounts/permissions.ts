/**
 * The one table of what each organization role may do (../shared/CONTRACT.md "Roles"): owner
 * everything; admin everything but deleting the organization and making or unmaking owners;
 * developer API keys, signing keys, activation codes, templates, webhooks, jobs, devices and
 * their printers; viewer read only.
 * Every dashboard route names the permission it needs and is checked against this table.
 */
import type { Role } from '../storage/accounts.js';

export const ROLES = ['owner', 'admin', 'developer', 'viewer'] as const satisfies readonly Role[];

export const PERMISSIONS = [
  'org:read',
  'org:update',
  'org:delete',
  'members:read',
  'members:manage',
  'owners:manage',
  'invitations:read',
  'invitations:manage',
  'billing:read',
  'apiKeys:read',
  'apiKeys:write',
  'signingKeys:read',
  'signingKeys:write',
  'activationCodes:write',
  'devices:read',
  'devices:write',
  'templates:read',
  'templates:write',
  'webhooks:write',
  'jobs:read',
  'jobs:write',
  'printers:read',
  'printers:write',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const READ: Permission[] = PERMISSIONS.filter((p) => p.endsWith(':read'));

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  admin: new Set(PERMISSIONS.filter((p) => p !== 'org:delete' && p !== 'owners:manage')),
  developer: new Set<Permission>([
    ...READ,
    'apiKeys:write',
    'signingKeys:write',
    'activationCodes:write',
    'templates:write',
    'webhooks:write',
    'jobs:write',
    'devices:write',
    'printers:write',
  ]),
  viewer: new Set(READ),
};

const RANK: Record<Role, number> = { owner: 4, admin: 3, developer: 2, viewer: 1 };

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/** The permissions of a role, in the table's order (GET /orgs/{orgId}/me). */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((p) => ROLE_PERMISSIONS[role].has(p));
}

/** True when `granted` is no higher than `holder` (invitations). */
export function atMost(granted: Role, holder: Role): boolean {
  return RANK[granted] <= RANK[holder];
}
