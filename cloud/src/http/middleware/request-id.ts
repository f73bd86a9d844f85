/**
 * Gives every request an id: a sane incoming `x-request-id` (1-128 characters of letters, digits,
 * `-_.:`) is kept, anything else replaced by a new one. The id is on every response, in every
 * log line of the request, and in error bodies.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

const SANE = /^[A-Za-z0-9\-_.:]{1,128}$/;

/**
 * A request's `res.locals`: its id, and its logger made when something logs (most requests log one
 * line or none). A class, so no request pays for defining the lazy `log` itself.
 */
class RequestLocals {
  readonly #logger: Logger;
  #child: Logger | undefined;

  constructor(
    logger: Logger,
    readonly requestId: string,
  ) {
    this.#logger = logger;
  }

  get log(): Logger {
    return (this.#child ??= this.#logger.child({ requestId: this.requestId }));
  }
}

export function requestId(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const id = incoming && SANE.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    const l = new RequestLocals(logger, id);
    res.locals = l as unknown as typeof res.locals;
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
