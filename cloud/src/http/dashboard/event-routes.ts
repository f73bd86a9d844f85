/**
 * GET /orgs/{orgId}/events: the dashboard's live channel as Server-Sent Events
 * (../shared/CONTRACT.md "The web dashboard"). The access token comes as `Authorization: Bearer`
 * or as `?access_token=` (an EventSource cannot set headers). The stream carries `job`,
 * `printer` and `device` events from the bus, a comment every `heartbeatMs` so that proxies keep
 * it open, and ends with `session_ended` when the session does: the token is checked again every
 * `sessionCheckMs` (expired, logged out, revoked, or no longer a member), and the browser
 * reconnects with a fresh token.
 */
import { Router, type Request } from 'express';
import { z } from 'zod';
import { PrintwireError } from '@printwire/shared/errors/index';
import type { AccountService } from '../../accounts/service.js';
import type { LiveEvents, LiveMessage } from '../../services/live-events.js';
import type { MembershipService } from '../../accounts/members.js';
import { parseWith, type Operation } from '../operation.js';
import { errorBodySchema } from '../../resources/schemas.js';
import { route } from './auth-routes.js';
import { can } from '../../accounts/permissions.js';
import { orgIdParams } from './schemas.js';

export interface EventStreamOptions {
  /** Milliseconds between heartbeat comments. Default 15 000. */
  heartbeatMs: number;
  /** Milliseconds between checks that the session still holds. Default 15 000. */
  sessionCheckMs: number;
  /** A stream whose unsent output passes this many bytes (a stalled reader) is ended. Default 1 MB. */
  maxBufferedBytes: number;
  /** The browser's reconnection delay, sent as `retry:`. Default 3 000 ms. */
  retryMs: number;
}

export const DEFAULT_EVENT_STREAM_OPTIONS: EventStreamOptions = {
  heartbeatMs: 15_000,
  sessionCheckMs: 15_000,
  maxBufferedBytes: 1024 * 1024,
  retryMs: 3_000,
};

const eventsQuery = z.object({
  mode: z.enum(['live', 'test']).default('live'),
  access_token: z.string().min(1).max(500).optional(),
});

export const eventOperations = {
  events: {
    method: 'get',
    path: '/orgs/{orgId}/events',
    summary: 'The live channel: job, printer and device changes as Server-Sent Events',
    description:
      'Events: `ready` (once, `{ organizationId, mode }`), `job` (`{ type: "job.state_changed", jobId, mode, state, errorCode, at, job }`, only jobs of `mode`), `printer` (`{ type: "printer.online" | "printer.offline" | "printer.paper_out" | "printer.error", printerId, deviceId, at, printer }`), `device` (`{ type: "device.activated" | "device.online" | "device.offline", deviceId, at, device }`), and `session_ended` (`{ reason }`) just before the server closes the stream. A comment line `: ping` keeps it open. Authorization: Bearer <accessToken>, or `?access_token=`.',
    tag: 'Dashboard: live',
    auth: 'any',
    params: orgIdParams,
    query: eventsQuery,
    responses: {
      200: { description: 'the event stream', contentType: 'text/event-stream' },
      401: { description: 'UNAUTHORIZED', schema: errorBodySchema },
      404: {
        description: 'NOT_FOUND: no such organization for this user',
        schema: errorBodySchema,
      },
    },
  },
} satisfies Record<string, Operation>;

function tokenOf(req: Request, query: z.infer<typeof eventsQuery>): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(req.get('authorization') ?? '');
  return match?.[1] ?? query.access_token;
}

export function eventRoutes(deps: {
  accounts: AccountService;
  members: Pick<MembershipService, 'roleOf'>;
  live: LiveEvents;
  options?: Partial<EventStreamOptions>;
}): Router {
  const { accounts, members, live } = deps;
  const options = { ...DEFAULT_EVENT_STREAM_OPTIONS, ...deps.options };
  const router = Router();

  /** Undefined while the session holds and the user may read the organization, else why not. */
  const problem = async (token: string | undefined, orgId: string) => {
    const found = token ? await accounts.authenticate(token) : undefined;
    if (!found) return 'session';
    const role = await members.roleOf(orgId, found.userId);
    if (!role || !can(role, 'org:read')) return 'membership';
    return undefined;
  };

  route(router, eventOperations.events, async (req, res) => {
    const { orgId } = parseWith(orgIdParams, req.params);
    const query = parseWith(eventsQuery, req.query);
    const token = tokenOf(req, query);
    const refused = await problem(token, orgId);
    if (refused === 'session') {
      throw new PrintwireError('UNAUTHORIZED', 'log in: the access token is missing or expired');
    }
    if (refused) throw new PrintwireError('NOT_FOUND', `no organization ${orgId}`);

    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache, no-transform');
    res.setHeader('X-Accel-Buffering', 'no');
    res.flushHeaders();
    res.socket?.setNoDelay(true);

    let open = true;
    const timers: NodeJS.Timeout[] = [];
    const stops: Array<() => void> = [];
    const end = () => {
      if (!open) return;
      open = false;
      for (const t of timers) clearInterval(t);
      for (const stop of stops) stop();
      res.end();
    };
    const write = (text: string) => {
      if (!open) return;
      res.write(text);
      if (res.writableLength > options.maxBufferedBytes) end();
    };
    const send = (message: { event: string; data: unknown }) =>
      write(`event: ${message.event}\ndata: ${JSON.stringify(message.data)}\n\n`);

    req.on('close', end);
    const stop = await live.listen({
      organizationId: orgId,
      mode: query.mode,
      send: (message: LiveMessage) => send(message),
      close: end,
    });
    // The browser may have gone while the subscription was made.
    if (!open) {
      stop();
      return;
    }
    stops.push(stop);
    write(`retry: ${options.retryMs}\n\n`);
    send({ event: 'ready', data: { organizationId: orgId, mode: query.mode } });
    timers.push(
      setInterval(() => write(': ping\n\n'), options.heartbeatMs),
      setInterval(() => {
        problem(token, orgId)
          .then((reason) => {
            if (!reason) return;
            send({ event: 'session_ended', data: { reason } });
            end();
          })
          .catch(() => undefined);
      }, options.sessionCheckMs),
    );
    for (const t of timers) t.unref();
  });

  return router;
}
