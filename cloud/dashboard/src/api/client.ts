/**
 * The typed client of the cloud's dashboard API (types generated from /openapi.json at build
 * time). Every request carries the in-memory access token; a 401 triggers one silent refresh
 * through the httpOnly `pw_refresh` cookie and one retry.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema';
import { accessToken, refreshSession } from '../session';

export type Schemas = components['schemas'];
export type User = Schemas['DashboardUser'];
export type Organization = Schemas['Organization'];
export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type ApiKey = Schemas['ApiKey'];
export type Billing = Schemas['Billing'];

/** Paths that never retry after a refresh: they are the session itself. */
const SESSION_PATHS = ['/auth/login', '/auth/refresh', '/auth/logout', '/auth/signup'];

async function sessionFetch(request: Request): Promise<Response> {
  const send = (token: string | undefined) => {
    const attempt = request.clone();
    if (token) attempt.headers.set('authorization', `Bearer ${token}`);
    return fetch(attempt);
  };
  const sent = accessToken();
  const response = await send(sent);
  const path = new URL(request.url).pathname;
  if (response.status !== 401 || !sent || SESSION_PATHS.some((p) => path.startsWith(p))) {
    return response;
  }
  return (await refreshSession()) ? send(accessToken()) : response;
}

export const api = createClient<paths>({
  baseUrl: '',
  credentials: 'same-origin',
  fetch: sessionFetch,
});

/** One field the API refused: its English message, and the rule it broke (to translate). */
export interface FieldIssue {
  path: string;
  message: string;
  rule?: string;
  params?: Record<string, string | number>;
}

/** An error answered by the API (`{ error: { code, message, details? }, requestId }`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldIssue[],
    readonly requestId: string | undefined,
    /** RATE_LIMITED: the seconds the API asks to wait (its Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** The issue the API named for one field, if any. */
  field(name: string): FieldIssue | undefined {
    return this.details.find((d) => d.path === name);
  }
}

interface ErrorBody {
  error?: { code?: string; message?: string; details?: unknown };
  requestId?: string;
}

/** The data of an openapi-fetch answer, or an ApiError. */
export async function data<T>(
  answer: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data: body, error, response } = await answer;
  if (response.ok) return body as T;
  const e = (error ?? {}) as ErrorBody;
  const details = Array.isArray(e.error?.details) ? (e.error.details as FieldIssue[]) : [];
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    e.error?.code ?? `HTTP_${response.status}`,
    e.error?.message ?? response.statusText,
    details,
    e.requestId,
    retryAfter > 0 ? retryAfter : undefined,
  );
}
