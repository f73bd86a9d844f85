/**
 * The dashboard session (../../shared/CONTRACT.md "Dashboard session"): the access token lives in
 * this module's memory only, never in storage; the refresh token is the httpOnly `pw_refresh`
 * cookie that only /auth sees. A page load, an expiring token or a 401 refreshes silently; a
 * refused refresh (expired, or a reused token that ended the session everywhere) signs out.
 */
import { useSyncExternalStore } from 'react';
import type { components } from './api/schema';

export type User = components['schemas']['DashboardUser'];

export type SessionState =
  { status: 'loading' } | { status: 'signed-out' } | { status: 'signed-in'; user: User };

export interface IssuedSession {
  user: User;
  accessToken: string;
  expiresAt: string;
}

let token: string | undefined;
let state: SessionState = { status: 'loading' };
let timer: ReturnType<typeof setTimeout> | undefined;
let refreshing: Promise<boolean> | undefined;
const listeners = new Set<() => void>();
const signOutListeners = new Set<() => void>();

function set(next: SessionState) {
  state = next;
  for (const listener of listeners) listener();
}

export const accessToken = (): string | undefined => token;

export function useSession(): SessionState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
  );
}

/** Called when the session ends (the query cache is emptied there). */
export function onSignOut(listener: () => void): void {
  signOutListeners.add(listener);
}

export function startSession(issued: IssuedSession): void {
  token = issued.accessToken;
  clearTimeout(timer);
  // Refresh a minute before the token expires, so a request rarely meets a 401.
  const delay = Date.parse(issued.expiresAt) - Date.now() - 60_000;
  timer = setTimeout(() => void refreshSession(), Math.max(delay, 5_000));
  set({ status: 'signed-in', user: issued.user });
}

export function updateUser(user: User): void {
  if (state.status === 'signed-in') set({ status: 'signed-in', user });
}

export function endSession(): void {
  token = undefined;
  clearTimeout(timer);
  set({ status: 'signed-out' });
  for (const listener of signOutListeners) listener();
}

/**
 * Rotates the refresh cookie for a new access token; true when signed in afterwards. One refresh
 * at a time, across tabs too (a Web Lock): two tabs sending the same cookie would look like reuse.
 */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const run = async () => {
      const res = await fetch('/auth/refresh', { method: 'POST', credentials: 'same-origin' });
      if (res.ok) {
        startSession((await res.json()) as IssuedSession);
        return true;
      }
      if (res.status >= 500) throw new Error(`refresh answered ${res.status}`);
      endSession();
      return false;
    };
    try {
      return 'locks' in navigator
        ? await navigator.locks.request('printwire-session-refresh', run)
        : await run();
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

let restoring: Promise<boolean> | undefined;

/** The page load's silent refresh: started once, as early as possible (main.tsx). */
export function restoreSession(): Promise<boolean> {
  restoring ??= refreshSession();
  return restoring;
}

export async function logout(): Promise<void> {
  const sent = token;
  await fetch('/auth/logout', {
    method: 'POST',
    credentials: 'same-origin',
    headers: sent ? { authorization: `Bearer ${sent}` } : {},
  }).catch(() => undefined);
  endSession();
}
