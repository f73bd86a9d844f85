/**
 * Printer groups: query keys, queries and mutations. Keys start `['orgs', orgId, 'printer-groups']`.
 * A group holds only printer ids: its members' live status comes from the printers query, which
 * the live channel patches in place (live.ts), so a badge changes without a reload.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data, type Schemas } from '../../api/client';
import { queryClient } from '../../data';
import type { Mode } from '../../frame';

export type PrinterGroup = Schemas['PrinterGroup'];
export type Strategy = PrinterGroup['strategy'];
export const STRATEGIES: readonly Strategy[] = ['failover', 'round-robin'];
/** The contract's limit: a group holds 1 to 20 printers. */
export const MAX_MEMBERS = 20;

/** The job list filtered to the group's jobs, in the mode on screen (a link to paste). */
export const groupJobsPath = (orgId: string, groupId: string, mode: Mode): string =>
  `/o/${orgId}/jobs?printerGroupId=${encodeURIComponent(groupId)}${mode === 'test' ? '&mode=test' : ''}`;

export const groupKeys = {
  all: (orgId: string) => ['orgs', orgId, 'printer-groups'] as const,
  list: (orgId: string) => ['orgs', orgId, 'printer-groups', 'list'] as const,
};

/** Every group of the organization, oldest first (the API answers them all at once). */
export const useGroups = (orgId: string) =>
  useQuery({
    queryKey: groupKeys.list(orgId),
    queryFn: () => data(api.GET('/orgs/{orgId}/printer-groups', { params: { path: { orgId } } })),
  });

export interface GroupForm {
  name: string;
  strategy: Strategy;
  printerIds: string[];
}

/** Creates the group, or changes the one of id `groupId`; the lists are refreshed after. */
export function useSaveGroup(orgId: string, groupId: string | undefined) {
  return useMutation({
    mutationFn: (body: GroupForm) =>
      groupId
        ? data(
            api.PATCH('/orgs/{orgId}/printer-groups/{id}', {
              params: { path: { orgId, id: groupId } },
              body,
            }),
          )
        : data(api.POST('/orgs/{orgId}/printer-groups', { params: { path: { orgId } }, body })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.all(orgId) }),
  });
}

export const deleteGroup = (orgId: string, groupId: string) =>
  data(
    api.DELETE('/orgs/{orgId}/printer-groups/{id}', { params: { path: { orgId, id: groupId } } }),
  );

/** `list` with the item at `index` moved by `delta` places (the same list when it cannot move). */
export function moved<T>(list: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}
