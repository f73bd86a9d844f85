/**
 * The live channel (../../shared/DESIGN.md "Behaviour"): one EventSource on
 * GET /orgs/{orgId}/events for the organization and mode on screen. Its events only touch the
 * TanStack Query cache, never a store of their own: a job, printer or device that a query holds
 * is patched in place at once (a state change shows within the event's delivery), and the
 * queries of that resource are invalidated shortly after (new jobs appear, counts follow).
 *
 * Query keys (shared by every page): an organization's resource starts
 * `['orgs', orgId, '<resource>', ...]` with 'jobs', 'printers', 'devices' and 'overview'.
 * job → 'jobs' and 'overview'; printer → 'printers' and 'overview'; device → 'devices' and
 * 'printers'. After a reconnection all four are invalidated: events missed meanwhile are not
 * replayed, the queries are asked again instead.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { queryClient } from './data';
import { accessToken, refreshSession } from './session';
import './live.css';
import { backoffMs } from '@printwire/shared/time/backoff';

export type LiveStatus = 'off' | 'connecting' | 'live' | 'reconnecting';

export const LIVE_RESOURCES = ['jobs', 'printers', 'devices', 'overview'] as const;
type Resource = (typeof LIVE_RESOURCES)[number];

/** What each stream event refreshes (the patch in place comes first). */
const INVALIDATES: Record<string, Resource[]> = {
  job: ['jobs', 'overview'],
  printer: ['printers', 'overview'],
  device: ['devices', 'printers'],
};

/** Milliseconds between an event and the refetch of the queries it touches (events coalesce). */
const INVALIDATE_AFTER_MS = 400;
const MAX_BACKOFF_MS = 30_000;

type Item = { id?: unknown } & Record<string, unknown>;

/**
 * `value` with the object of id `id` merged with `patch`, wherever it sits: the value itself, a
 * list's `data`, or an infinite query's `pages`. The same value when nothing matched.
 */
export function patchById(value: unknown, id: string, patch: Record<string, unknown>): unknown {
  if (!value || typeof value !== 'object') return value;
  const v = value as Item & { data?: unknown; pages?: unknown };
  if (v.id === id) return { ...v, ...patch };
  if (Array.isArray(v.pages)) {
    const pages = v.pages.map((p) => patchById(p, id, patch));
    return pages.some((p, i) => p !== (v.pages as unknown[])[i]) ? { ...v, pages } : value;
  }
  if (Array.isArray(v.data)) {
    let changed = false;
    const data = v.data.map((item: Item) => {
      if (item && item.id === id) {
        changed = true;
        return { ...item, ...patch };
      }
      return item;
    });
    return changed ? { ...v, data } : value;
  }
  return value;
}

/** Applies one stream event to the cache; exported for the tests of the convention. */
export function applyLiveEvent(
  client: QueryClient,
  orgId: string,
  event: string,
  data: Record<string, unknown>,
  invalidate: (resource: Resource) => void,
): void {
  const under = (resource: Resource): QueryKey => ['orgs', orgId, resource];
  if (event === 'job') {
    const job = data.job as Item | undefined;
    const jobId = data.jobId as string;
    if (job) {
      client.setQueriesData({ queryKey: under('jobs') }, (old: unknown) => {
        const patched = patchById(old, jobId, job);
        // A job page holds the job with its events: the new state joins its timeline.
        if (patched !== old && Array.isArray((old as { events?: unknown })?.events)) {
          const events = (old as { events: unknown[] }).events;
          return {
            ...(patched as object),
            events: [...events, { state: data.state, errorCode: data.errorCode, at: data.at }],
          };
        }
        return patched;
      });
    }
  } else if (event === 'printer') {
    const printer = data.printer as Item | undefined;
    if (printer && typeof data.printerId === 'string') {
      const { status, lastStatusAt } = printer;
      client.setQueriesData({ queryKey: under('printers') }, (old: unknown) =>
        patchById(old, data.printerId as string, { status, lastStatusAt }),
      );
    }
  } else if (event === 'device') {
    const device = data.device as Item | undefined;
    if (device && typeof data.deviceId === 'string') {
      const { status, lastSeenAt } = device;
      client.setQueriesData({ queryKey: under('devices') }, (old: unknown) =>
        patchById(old, data.deviceId as string, { status, lastSeenAt }),
      );
    }
  }
  for (const resource of INVALIDATES[event] ?? []) invalidate(resource);
}

interface Channel {
  key: string;
  status: LiveStatus;
  close(): void;
}

let channel: Channel | undefined;
const listeners = new Set<() => void>();
const setStatus = (c: Channel, status: LiveStatus) => {
  c.status = status;
  for (const l of listeners) l();
};

function connect(orgId: string, mode: 'live' | 'test'): Channel {
  const c: Channel = { key: `${orgId}:${mode}`, status: 'connecting', close: () => undefined };
  let source: EventSource | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let everReady = false;
  let closed = false;
  const pending = new Set<Resource>();
  let flush: ReturnType<typeof setTimeout> | undefined;
  const invalidate = (resource: Resource) => {
    pending.add(resource);
    flush ??= setTimeout(() => {
      flush = undefined;
      for (const r of pending) void queryClient.invalidateQueries({ queryKey: ['orgs', orgId, r] });
      pending.clear();
    }, INVALIDATE_AFTER_MS);
  };

  const open = () => {
    if (closed) return;
    const token = accessToken();
    if (!token) {
      setStatus(c, 'reconnecting');
      void refreshSession().then((ok) => (ok ? open() : undefined));
      return;
    }
    const url = `/orgs/${encodeURIComponent(orgId)}/events?mode=${mode}&access_token=${encodeURIComponent(token)}`;
    const es = new EventSource(url);
    source = es;
    es.addEventListener('ready', () => {
      // Events are not replayed: after a cut (or a first connection that failed), ask again.
      if (everReady || failures > 0) for (const r of LIVE_RESOURCES) invalidate(r);
      everReady = true;
      failures = 0;
      setStatus(c, 'live');
    });
    for (const name of ['job', 'printer', 'device']) {
      es.addEventListener(name, (e) => {
        try {
          const data = JSON.parse((e as MessageEvent<string>).data) as Record<string, unknown>;
          applyLiveEvent(queryClient, orgId, name, data, invalidate);
        } catch {
          // A malformed event changes nothing; the next invalidation brings the truth.
        }
      });
    }
    const again = (refresh: boolean) => {
      es.close();
      if (closed) return;
      setStatus(c, 'reconnecting');
      failures++;
      const delay = backoffMs(failures - 1, { baseMs: 1000, maxMs: MAX_BACKOFF_MS });
      retry = setTimeout(() => {
        if (refresh) void refreshSession().then(() => open());
        else open();
      }, delay);
    };
    // The session ended on the server (the access token expired): a fresh token, then again.
    es.addEventListener('session_ended', () => {
      failures = 0;
      again(true);
    });
    // A refused or lost connection: EventSource would retry with the same (maybe expired) token.
    es.addEventListener('error', () => again(failures > 0 || es.readyState === EventSource.CLOSED));
  };

  c.close = () => {
    closed = true;
    clearTimeout(retry);
    clearTimeout(flush);
    source?.close();
  };
  open();
  return c;
}

/**
 * Keeps the live channel of `orgId` in `mode` open while the calling component is mounted (the
 * frame), and answers its status for the "Live" mark.
 */
export function useLive(orgId: string | undefined, mode: 'live' | 'test'): LiveStatus {
  useEffect(() => {
    if (!orgId) return;
    const key = `${orgId}:${mode}`;
    if (channel?.key !== key) {
      channel?.close();
      channel = connect(orgId, mode);
      for (const l of listeners) l();
    }
    const mine = channel;
    return () => {
      // Closed a moment later, so that a re-render of the frame keeps the same connection.
      setTimeout(() => {
        if (channel === mine && listeners.size === 0) {
          mine.close();
          channel = undefined;
        }
      }, 0);
    };
  }, [orgId, mode]);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (orgId && channel?.key === `${orgId}:${mode}` ? channel.status : 'off'),
  );
}
