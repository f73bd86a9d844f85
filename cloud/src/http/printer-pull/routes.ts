/**
 * The printers' own endpoints (Star CloudPRNT, Epson Server Direct Print): the address the
 * dashboard gives a printer, `/printer-pull/<protocol>/<secret>`. Mounted before the API's JSON
 * body check: CloudPRNT posts JSON (whatever its Content-Type says), SDP posts a form. Every
 * answer is `Cache-Control: no-store` (a caching proxy must never answer a poll), nothing here
 * redirects, and the protocol's logic lives in services/cloud-printers.
 */
import express, { Router, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { CloudPrntEndpoint, type PullReply } from '../../services/cloud-printers/cloudprnt.js';
import { SdpEndpoint } from '../../services/cloud-printers/sdp.js';
import type { CloudPrinterService } from '../../services/cloud-printers/service.js';
import type { Operation } from '../operation.js';
import { route } from '../dashboard/auth-routes.js';

export const PULL_PREFIX = '/printer-pull/';

const TAG = 'Printers that connect by themselves';
const secretParams = z.object({
  secret: z.string().describe('the secret of the printer’s address (shown once in the dashboard)'),
});
const wrongSecret = { description: 'no printer has this address (removed, or mistyped)' };

export const printerPullOperations = {
  cloudPrntPoll: {
    method: 'post',
    path: '/printer-pull/cloudprnt/{secret}',
    summary: 'Star CloudPRNT poll: the printer’s status; the answer says whether a job is ready',
    description:
      'Body: CloudPRNT JSON (statusCode, status, printerMAC, jobToken, printingInProgress, clientAction). Answer: { jobReady, mediaTypes?, jobToken?, deleteMethod?, clientAction? }. Cache-Control: no-store.',
    tag: TAG,
    auth: 'none',
    params: secretParams,
    responses: { 200: { description: 'the poll’s answer' }, 404: wrongSecret },
  },
  cloudPrntFetch: {
    method: 'get',
    path: '/printer-pull/cloudprnt/{secret}',
    summary: 'Star CloudPRNT job fetch (?type=&token=), or its confirmation with ?delete&code=',
    description:
      'The job in the media type asked for, the same bytes however often it is asked; 404 no job, 415 a media type not offered.',
    tag: TAG,
    auth: 'none',
    params: secretParams,
    responses: {
      200: { description: 'the job’s bytes' },
      404: { description: 'no job, or no printer has this address' },
      415: { description: 'the job is not offered in this media type' },
    },
  },
  cloudPrntConfirm: {
    method: 'delete',
    path: '/printer-pull/cloudprnt/{secret}',
    summary: 'Star CloudPRNT job confirmation (?code=&token=): 2xx printed, else failed',
    tag: TAG,
    auth: 'none',
    params: secretParams,
    responses: {
      200: { description: 'recorded (a repeated confirmation changes nothing)' },
      404: wrongSecret,
    },
  },
  cloudPrntSetting: {
    method: 'get',
    path: '/printer-pull/cloudprnt/cloudprnt-setting.json',
    summary: 'Star CloudPRNT server setting request: 404, this server speaks CloudPRNT over HTTP',
    tag: TAG,
    auth: 'none',
    responses: { 404: { description: 'CloudPRNT HTTP only' } },
  },
  sdpRequest: {
    method: 'post',
    path: '/printer-pull/sdp/{secret}',
    summary: 'Epson Server Direct Print: GetRequest, SetResponse and SetStatus',
    description:
      'application/x-www-form-urlencoded: ConnectionType=GetRequest answers a PrintRequestInfo (or an empty body); SetResponse (ResponseFile) and SetStatus (Status) answer an empty body. text/xml; charset=utf-8, Cache-Control: no-store.',
    tag: TAG,
    auth: 'none',
    params: secretParams,
    responses: { 200: { description: 'the print request, or an empty body' }, 404: wrongSecret },
  },
} satisfies Record<string, Operation>;

/** A poll's body: small JSON; an SDP result file can hold a few results. */
const JSON_LIMIT = 64 * 1024;
const FORM_LIMIT = 1024 * 1024;

function send(res: Response, reply: PullReply): void {
  res.status(reply.status);
  if (reply.contentType) res.type(reply.contentType);
  if (Buffer.isBuffer(reply.body) || typeof reply.body === 'string') res.send(reply.body);
  else res.json(reply.body);
}

function secretOf(req: Request): string {
  const secret = req.params.secret;
  return typeof secret === 'string' ? secret : '';
}

export function printerPullRoutes(deps: {
  cloudPrinters: CloudPrinterService;
  logger: Logger;
}): Router {
  const cloudprnt = new CloudPrntEndpoint(deps.cloudPrinters, deps.logger);
  const sdp = new SdpEndpoint(deps.cloudPrinters, deps.logger);
  const router = Router({ strict: true });
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const json = express.json({ limit: JSON_LIMIT, strict: false, type: () => true });
  const form = express.urlencoded({ limit: FORM_LIMIT, extended: false, type: () => true });

  // MQTT-capable Star firmware asks for this beside the configured address: HTTP only here.
  const ops = printerPullOperations;
  route(router, ops.cloudPrntSetting, (_req, res) => {
    res.status(404).json({ error: 'this server speaks CloudPRNT over HTTP only' });
  });
  route(router, ops.cloudPrntPoll, json, async (req, res) => {
    send(res, await cloudprnt.poll(secretOf(req), req.body));
  });
  route(router, ops.cloudPrntFetch, async (req, res) => {
    send(res, await cloudprnt.fetch(secretOf(req), req.query as Record<string, unknown>));
  });
  route(router, ops.cloudPrntConfirm, async (req, res) => {
    send(res, await cloudprnt.confirm(secretOf(req), req.query as Record<string, unknown>));
  });
  route(router, ops.sdpRequest, form, async (req, res) => {
    const body = (typeof req.body === 'object' && req.body !== null ? req.body : {}) as Record<
      string,
      unknown
    >;
    send(res, await sdp.handle(secretOf(req), body));
  });
  return router;
}
