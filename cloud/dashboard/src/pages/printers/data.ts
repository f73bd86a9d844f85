/**
 * Printers: query keys, queries and mutations. Keys start `['orgs', orgId, 'printers', mode, ...]`
 * (live.ts patches status in place from printer events and refetches after device events).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, data, type Schemas } from '../../api/client';
import { queryClient } from '../../data';
import type { Mode } from '../../frame';
import { deviceKeys } from '../devices/data';

export type Printer = Schemas['DashboardPrinter'];
export type PrinterDefaults = Schemas['PrinterDefaults'];

export const printerKeys = {
  all: (orgId: string) => ['orgs', orgId, 'printers'] as const,
  list: (orgId: string, mode: Mode) => ['orgs', orgId, 'printers', mode, 'list'] as const,
};

/** Every printer of the organization (pages of 100 read in turn: an organization has few). */
export const usePrinters = (orgId: string, mode: Mode) =>
  useQuery({
    queryKey: printerKeys.list(orgId, mode),
    queryFn: async () => {
      const all: Printer[] = [];
      let cursor: string | undefined;
      do {
        const page = await data(
          api.GET('/orgs/{orgId}/printers', {
            params: { path: { orgId }, query: { mode, limit: 100, ...(cursor ? { cursor } : {}) } },
          }),
        );
        all.push(...page.data);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return { data: all, nextCursor: null };
    },
  });

export interface PrinterPatch {
  alias?: string | null;
  isDefault?: boolean;
  defaults?: Partial<PrinterDefaults>;
}

export function useUpdatePrinter(orgId: string, printerId: string) {
  return useMutation({
    mutationFn: (body: PrinterPatch) =>
      data(
        api.PATCH('/orgs/{orgId}/printers/{id}', {
          params: { path: { orgId, id: printerId } },
          body: body as never,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printerKeys.all(orgId) }),
  });
}

export function useTestPage(orgId: string, printerId: string) {
  return useMutation({
    mutationFn: () =>
      data(
        api.POST('/orgs/{orgId}/printers/{id}/test-page', {
          params: { path: { orgId, id: printerId } },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['orgs', orgId, 'jobs'] }),
  });
}

export const overviewKey = (orgId: string, mode: Mode, since: string) =>
  ['orgs', orgId, 'overview', mode, since] as const;

export const useOverview = (orgId: string, mode: Mode, since: string) =>
  useQuery({
    queryKey: overviewKey(orgId, mode, since),
    queryFn: () =>
      data(
        api.GET('/orgs/{orgId}/overview', {
          params: { path: { orgId }, query: { mode, since } },
        }),
      ),
  });

/** A printer that connects by itself: Star CloudPRNT or Epson Server Direct Print. */
export type PullProtocol = 'cloudprnt' | 'sdp';
export interface NewCloudPrinter {
  name: string;
  protocol: PullProtocol;
  paper: '58mm' | '80mm';
}

/** Adds one; the answer's `url` (with its secret) is shown once and never again. */
export function useCreateCloudPrinter(orgId: string) {
  return useMutation({
    mutationFn: (body: NewCloudPrinter) =>
      data(api.POST('/orgs/{orgId}/cloud-printers', { params: { path: { orgId } }, body })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: printerKeys.all(orgId) }),
        queryClient.invalidateQueries({ queryKey: deviceKeys.devices(orgId) }),
      ]),
  });
}

/** Removes one: its address stops working at once. */
export const removeCloudPrinter = (orgId: string, printerId: string) =>
  data(
    api.DELETE('/orgs/{orgId}/cloud-printers/{printerId}', {
      params: { path: { orgId, printerId } },
    }),
  );

export const afterCloudPrinterRemoved = (orgId: string) =>
  Promise.all([
    queryClient.invalidateQueries({ queryKey: printerKeys.all(orgId) }),
    queryClient.invalidateQueries({ queryKey: deviceKeys.devices(orgId) }),
  ]);
