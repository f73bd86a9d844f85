/**
 * JSON bodies: a request that carries a body must say `Content-Type: application/json` (else 415
 * UNSUPPORTED_MEDIA_TYPE); a body over the limit is 413 PAYLOAD_TOO_LARGE; malformed JSON is 400
 * INVALID_JSON. Requests without a body (GET, cancel, reprint) pass untouched.
 */
import express, { type RequestHandler } from 'express';
import { PrintwireError } from '@printwire/shared/errors/index';

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
    if (!req.is('application/json')) {
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
  return [requireJson, express.json({ limit: options.maxBytes, strict: false })];
}
