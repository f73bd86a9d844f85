/**
 * JSON bodies: a request that carries a body must say `Content-Type: application/json` (else 415
 * UNSUPPORTED_MEDIA_TYPE); a body over the limit is 413 PAYLOAD_TOO_LARGE; malformed JSON is 400
 * INVALID_JSON. Requests without a body (GET, cancel, reprint) pass untouched.
 */
import express, { type RequestHandler } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';

/** The content types clients send nearly always, checked without parsing the header. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8']);

function isJson(req: Parameters<RequestHandler>[0]): boolean {
  const type = req.headers['content-type'];
  return (type !== undefined && PLAIN_JSON.has(type.toLowerCase())) || !!req.is('application/json');
}

function hasBody(req: Parameters<RequestHandler>[0]): boolean {
  const length = req.get('content-length');
  if (length !== undefined) return Number(length) > 0;
  return req.get('transfer-encoding') !== undefined;
}

export function jsonBody(options: { maxBytes: number }): RequestHandler[] {
  const requireJson: RequestHandler = (req, _res, next) => {
    if (!hasBody(req)) {
      next();
      return;
    }
    if (!isJson(req)) {
      next(
        new PrintwireError(
          'UNSUPPORTED_MEDIA_TYPE',
          `request bodies must be application/json, not ${req.get('content-type') ?? 'unset'}`,
        ),
      );
      return;
    }
    const length = req.get('content-length');
    if (length !== undefined && Number(length) > options.maxBytes) {
      next(
        new PrintwireError(
          'PAYLOAD_TOO_LARGE',
          `the request body is larger than ${options.maxBytes} bytes`,
        ),
      );
      return;
    }
    next();
  };
  // requireJson has checked the type of every request with a body, and without one the parser
  // does nothing: the parser need not check it again.
  return [requireJson, express.json({ limit: options.maxBytes, strict: false, type: () => true })];
}
