/**
 * Requests Node's HTTP parser refuses before the app sees them (a request line and headers over
 * its 16 KB limit, a malformed request line) are answered like every other error: the spec's
 * body `{ error: { code, message, retryable }, requestId }` with the same id in `x-request-id`,
 * instead of Node's bare status line.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

function messageFor(code: string | undefined): string {
  return code === 'HPE_HEADER_OVERFLOW'
    ? 'the request line and headers are larger than the server accepts (16 KB)'
    : 'the request is not valid HTTP';
}

/** Makes `server` answer a request its parser refuses with a 400 VALIDATION_FAILED body. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // A connection reset or a timeout leaves no one to answer.
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    const body = JSON.stringify({
      error: { code: 'VALIDATION_FAILED', message: messageFor(err.code), retryable: false },
      requestId,
    });
    // An answer to HEAD has no body (a client reads the bytes after the headers as an error);
    // the request line is the start of what the parser refused.
    const rawPacket = (err as NodeJS.ErrnoException & { rawPacket?: Buffer }).rawPacket;
    const head = rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(
      'HTTP/1.1 400 Bad Request\r\n' +
        'content-type: application/json; charset=utf-8\r\n' +
        `x-request-id: ${requestId}\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        'connection: close\r\n\r\n' +
        (head ? '' : body),
    );
  });
}
