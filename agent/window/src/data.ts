/** The agent's data in TanStack Query: one key per resource; the event stream invalidates them. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import type {
  WindowJob,
  WindowLogLine,
  WindowPrinters,
  WindowPrompt,
  WindowSettings,
  WindowState,
} from '../../src/window/window-types';

export const keys = {
  state: ['state'] as const,
  printers: ['printers'] as const,
  jobs: ['jobs'] as const,
  settings: ['settings'] as const,
  logs: ['logs'] as const,
  prompts: ['prompts'] as const,
};

export const useAgentState = () =>
  useQuery({ queryKey: keys.state, queryFn: () => api.get<WindowState>('state') });
export const usePrinters = () =>
  useQuery({ queryKey: keys.printers, queryFn: () => api.get<WindowPrinters>('printers') });
export const useJobs = () =>
  useQuery({
    queryKey: keys.jobs,
    queryFn: async () => (await api.get<{ data: WindowJob[] }>('jobs')).data,
  });
export const useSettings = () =>
  useQuery({ queryKey: keys.settings, queryFn: () => api.get<WindowSettings>('settings') });
export const useLogs = () =>
  useQuery({
    queryKey: keys.logs,
    queryFn: async () => (await api.get<{ data: WindowLogLine[] }>('logs')).data,
    // The log has no event of its own: read again every few seconds while the page is open.
    refetchInterval: 3000,
  });
export const usePrompts = (enabled: boolean) =>
  useQuery({
    queryKey: keys.prompts,
    queryFn: async () => (await api.get<{ data: WindowPrompt[] }>('prompts')).data,
    enabled,
  });

/** A POST whose answer replaces the state; the lists it changes are refetched. */
export function useAction<TVars = void>(
  run: (vars: TVars) => Promise<unknown>,
  invalidates: ReadonlyArray<readonly string[]>,
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: async () => {
      await Promise.all(invalidates.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}
