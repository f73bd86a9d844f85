/**
 * Server state: query keys and the queries of each resource. Mutations sit in the pages and
 * invalidate the keys they change; nothing from the server is kept anywhere but this cache.
 */
import { QueryClient, useQuery } from '@tanstack/react-query';
import { ApiError, api, data } from './api/client';
import { onSignOut } from './session';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      // A 4xx will not change by asking again; a lost connection or a 5xx may.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});
onSignOut(() => queryClient.clear());

export const keys = {
  orgs: ['orgs'] as const,
  org: (orgId: string) => ['orgs', orgId] as const,
  access: (orgId: string) => ['orgs', orgId, 'me'] as const,
  members: (orgId: string) => ['orgs', orgId, 'members'] as const,
  invitations: (orgId: string) => ['orgs', orgId, 'invitations'] as const,
  apiKeys: (orgId: string) => ['orgs', orgId, 'api-keys'] as const,
  billing: (orgId: string) => ['orgs', orgId, 'billing'] as const,
};

const org = (orgId: string) => ({ params: { path: { orgId } } });

export const useOrgs = () =>
  useQuery({ queryKey: keys.orgs, queryFn: () => data(api.GET('/orgs')) });

export const useOrg = (orgId: string) =>
  useQuery({
    queryKey: keys.org(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}', org(orgId))),
  });

export const useAccess = (orgId: string) =>
  useQuery({
    queryKey: keys.access(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/me', org(orgId))),
  });

/** Whether the caller may do `permission` in the organization (false until known). */
export function useCan(orgId: string, permission: string): boolean {
  const access = useAccess(orgId);
  return (access.data?.permissions as string[] | undefined)?.includes(permission) ?? false;
}

export const useMembers = (orgId: string) =>
  useQuery({
    queryKey: keys.members(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/members', org(orgId))),
  });

export const useInvitations = (orgId: string, enabled: boolean) =>
  useQuery({
    queryKey: keys.invitations(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/invitations', org(orgId))),
    enabled,
  });

export const useApiKeys = (orgId: string) =>
  useQuery({
    queryKey: keys.apiKeys(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/api-keys', org(orgId))),
  });

export const useBilling = (orgId: string) =>
  useQuery({
    queryKey: keys.billing(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/billing', org(orgId))),
  });
