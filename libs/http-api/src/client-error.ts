import { maxHeaderSize, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from './error-handler.js';

/** What Node's HTTP parser refused, as the status and stable code a client reads in the body. */
function answerOf(error: NodeJS.ErrnoException): { status: number; reason: string; code: string; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, reason: 'Request Header Fields Too Large', code: 'REQUEST.HEADERS_TOO_LARGE', message: `the request headers are larger than ${maxHeaderSize} bytes in total` };
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', code: 'REQUEST.TIMEOUT', message: 'the request did not arrive in time' };
  }
  return { status: 400, reason: 'Bad Request', code: 'REQUEST.MALFORMED', message: 'the request is not valid HTTP/1.1' };
}

/**
 * The HTTP server's 'clientError' listener: a request Node's parser refuses before any handler sees it (a header
 * flood, a malformed request line, a request too slow to arrive) is answered like every other error, with a status
 * and the JSON error body, instead of Node's bare status line. A connection the client already broke is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // As Node's own handler does: no second status line on a connection whose answer has already begun.
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message } = answerOf(error);
  answerOnSocket(socket, status, reason, code, message);
}

/** An answer written straight to the connection, for requests that never become a request/response pair. */
function answerOnSocket(socket: Duplex, status: number, reason: string, code: string, message: string): void {
  const json = JSON.stringify(errorBody(code, message));
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`);
}

/**
 * Answers, with the JSON error body, the requests node:http handles before (or instead of) the API: malformed
 * ones and header floods ('clientError'), an Expect other than 100-continue ('checkExpectation', which Node answers
 * with a bare 417), and CONNECT ('connect', whose socket Node drops without a word).
 */
export function guardHttpServer(server: Server): void {
  server.on('clientError', answerClientError);
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const json = JSON.stringify(errorBody('REQUEST.EXPECTATION_FAILED', `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported; send no Expect header, or 100-continue`));
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json), connection: 'close' });
    res.end(json);
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    answerOnSocket(socket, 405, 'Method Not Allowed', 'REQUEST.METHOD_NOT_ALLOWED', 'the service does not tunnel connections (CONNECT)');
  });
}
