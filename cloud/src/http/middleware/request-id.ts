/**
 * Gives every request an id: a sane incoming `x-request-id` (1-128 characters of letters, digits,
 * `-_.:`) is kept, anything else replaced by a new one. The id is on every response, in every
 * log line of the request, and in error bodies.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { locals } from '../context.js';

const SANE = /^[A-Za-z0-9\-_.:]{1,128}$/;

export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && SANE.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    const l = locals(res);
    l.requestId = id;
    // The child logger is made when something logs: most requests log one line or none.
    let child: Logger | undefined;
    Object.defineProperty(l, 'log', {
      get: () => (child ??= logger.child({ requestId: id })),
      configurable: true,
      enumerable: true,
    });
    res.setHeader('x-request-id', id);
    if (!logger.isLevelEnabled('info')) {
      next();
      return;
    }
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      l.log?.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}
