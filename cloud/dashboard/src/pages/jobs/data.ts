/**
 * Jobs: query keys, queries and mutations. Keys start `['orgs', orgId, 'jobs', mode, ...]` (the
 * live channel's convention, live.ts): a job event patches the list and the job page in place.
 */
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, api, data, type Schemas } from '../../api/client';
import { queryClient } from '../../data';
import type { Mode } from '../../frame';
import { accessToken, refreshSession } from '../../session';

export type Job = Schemas['Job'];
export type JobState = Job['state'];
export const JOB_STATES: JobState[] = ['queued', 'sending', 'printed', 'failed', 'cancelled'];
export const FINISHED: JobState[] = ['printed', 'failed', 'cancelled'];

/** The list's filters, as the URL and the API name them. */
export interface JobFilters {
  state?: JobState;
  printerId?: string;
  deviceId?: string;
  /** The jobs sent to this printer group, whichever member holds them. */
  printerGroupId?: string;
  from?: string;
  to?: string;
  /** `metadata.<key>` → value. */
  metadata: Record<string, string>;
}

export const jobKeys = {
  all: (orgId: string) => ['orgs', orgId, 'jobs'] as const,
  list: (orgId: string, mode: Mode, filters: JobFilters) =>
    ['orgs', orgId, 'jobs', mode, 'list', filters] as const,
  job: (orgId: string, mode: Mode, jobId: string) =>
    ['orgs', orgId, 'jobs', mode, 'job', jobId] as const,
  content: (orgId: string, mode: Mode, jobId: string) =>
    ['orgs', orgId, 'jobs', mode, 'content', jobId] as const,
};

export const PAGE_SIZE = 50;

export function useJobs(orgId: string, mode: Mode, filters: JobFilters) {
  return useInfiniteQuery({
    queryKey: jobKeys.list(orgId, mode, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => {
      const query: Record<string, string | number> = { mode, limit: PAGE_SIZE };
      if (filters.state) query.state = filters.state;
      if (filters.printerId) query.printerId = filters.printerId;
      if (filters.deviceId) query.deviceId = filters.deviceId;
      if (filters.printerGroupId) query.printerGroupId = filters.printerGroupId;
      if (filters.from) query.from = filters.from;
      if (filters.to) query.to = filters.to;
      for (const [k, v] of Object.entries(filters.metadata)) query[`metadata.${k}`] = v;
      if (pageParam) query.cursor = pageParam;
      return data(
        api.GET('/orgs/{orgId}/jobs', {
          params: { path: { orgId }, query: query as never },
        }),
      );
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

export const useJob = (orgId: string, mode: Mode, jobId: string) =>
  useQuery({
    queryKey: jobKeys.job(orgId, mode, jobId),
    queryFn: () =>
      data(
        api.GET('/orgs/{orgId}/jobs/{id}', {
          params: { path: { orgId, id: jobId }, query: { mode } },
        }),
      ),
  });

/** A job's content as the API sends it: text (receipt JSON, ZPL/EPL, text, a URL) or bytes. */
export type JobContent = { kind: 'text'; text: string } | { kind: 'bytes'; bytes: Uint8Array };

/** Fetches a binary answer with the session (openapi-fetch parses JSON; these are not JSON). */
async function sessionGet(path: string): Promise<Response> {
  const send = () =>
    fetch(path, {
      credentials: 'same-origin',
      headers: { authorization: `Bearer ${accessToken() ?? ''}` },
    });
  let res = await send();
  if (res.status === 401 && (await refreshSession())) res = await send();
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as {
      error?: { code?: string; message?: string };
      requestId?: string;
    };
    throw new ApiError(
      res.status,
      body.error?.code ?? `HTTP_${res.status}`,
      body.error?.message ?? res.statusText,
      [],
      body.requestId,
    );
  }
  return res;
}

export const useJobContent = (orgId: string, mode: Mode, job: Job | undefined) =>
  useQuery({
    queryKey: jobKeys.content(orgId, mode, job?.id ?? ''),
    enabled: Boolean(job?.contentRetained),
    staleTime: Infinity,
    queryFn: async (): Promise<JobContent> => {
      const res = await sessionGet(
        `/orgs/${encodeURIComponent(orgId)}/jobs/${encodeURIComponent(job!.id)}/content?mode=${mode}`,
      );
      const type = res.headers.get('content-type') ?? '';
      if (type.startsWith('application/octet-stream')) {
        return { kind: 'bytes', bytes: new Uint8Array(await res.arrayBuffer()) };
      }
      return { kind: 'text', text: await res.text() };
    },
  });

/** The sandbox's picture of a job, as a data: URL (the page's CSP allows no blob: image). */
export const useJobPreview = (orgId: string, mode: Mode, job: Job | undefined) =>
  useQuery({
    queryKey: [...jobKeys.content(orgId, mode, job?.id ?? ''), 'preview'],
    enabled: Boolean(job?.hasPreview),
    staleTime: Infinity,
    queryFn: async () => {
      const res = await sessionGet(
        `/orgs/${encodeURIComponent(orgId)}/jobs/${encodeURIComponent(job!.id)}/preview?mode=${mode}`,
      );
      const blob = await res.blob();
      return await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('preview not read'));
        reader.readAsDataURL(blob);
      });
    },
  });

/** Most labels of a batch the job page draws (each is one request). */
export const LABELS_SHOWN = 24;

/** A label job's pictures: the first LABELS_SHOWN labels, how many there are, what was not drawn. */
export interface JobLabels {
  labels: string[];
  count: number;
  skipped: string[];
  /** The renderer's warnings of the labels drawn, each once. */
  warnings: string[];
}

/** `Printwire-Label-Warnings`: a percent-encoded JSON array of strings; none when absent. */
export function labelWarnings(res: Response): string[] {
  const header = res.headers.get('printwire-label-warnings');
  if (!header) return [];
  try {
    const list: unknown = JSON.parse(decodeURIComponent(header));
    return Array.isArray(list) ? list.filter((w): w is string => typeof w === 'string') : [];
  } catch {
    return [];
  }
}

async function dataUrl(res: Response): Promise<string> {
  const blob = await res.blob();
  return await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('preview not read'));
    reader.readAsDataURL(blob);
  });
}

/** Every label of a ZPL or EPL sandbox job (`?label=N`), as data: URLs. */
export const useJobLabels = (orgId: string, mode: Mode, job: Job | undefined) =>
  useQuery({
    queryKey: [...jobKeys.content(orgId, mode, job?.id ?? ''), 'labels'],
    enabled: Boolean(job?.hasPreview),
    staleTime: Infinity,
    queryFn: async (): Promise<JobLabels> => {
      const path = (n: number) =>
        `/orgs/${encodeURIComponent(orgId)}/jobs/${encodeURIComponent(job!.id)}/preview?mode=${mode}&label=${n}`;
      const first = await sessionGet(path(0));
      const count = Number(first.headers.get('printwire-label-count') ?? '1') || 1;
      const skipped = (first.headers.get('printwire-skipped-commands') ?? '')
        .split(',')
        .filter(Boolean);
      const others = await Promise.all(
        Array.from({ length: Math.min(count, LABELS_SHOWN) - 1 }, (_, i) =>
          sessionGet(path(i + 1)),
        ),
      );
      // Each label has its own warnings (its fields' data); each sentence is listed once.
      const warnings = [...new Set([first, ...others].flatMap(labelWarnings))];
      const labels = await Promise.all([first, ...others].map(dataUrl));
      return { labels, count, skipped, warnings };
    },
  });

/** Cancel or reprint; the job's queries are refreshed after either. */
export function useJobAction(orgId: string, mode: Mode, jobId: string) {
  const path = { params: { path: { orgId, id: jobId }, query: { mode } } };
  const done = () => queryClient.invalidateQueries({ queryKey: jobKeys.all(orgId) });
  return {
    cancel: useMutation({
      mutationFn: () => data(api.POST('/orgs/{orgId}/jobs/{id}/cancel', path)),
      onSuccess: done,
    }),
    reprint: useMutation({
      mutationFn: () => data(api.POST('/orgs/{orgId}/jobs/{id}/reprint', path)),
      onSuccess: done,
    }),
  };
}

export function useCreateJob(orgId: string, mode: Mode) {
  return useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      data(
        api.POST('/orgs/{orgId}/jobs', {
          params: { path: { orgId }, query: { mode } },
          body: body as never,
        }),
      ),
    onSuccess: (job) => {
      queryClient.setQueryData(jobKeys.job(orgId, mode, job.id), job);
      return queryClient.invalidateQueries({ queryKey: jobKeys.all(orgId) });
    },
  });
}
