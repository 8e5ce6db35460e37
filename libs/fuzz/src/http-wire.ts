import { connect } from 'node:net';

/**
 * One request as bytes on the wire. Raw, because most of what the fuzz sends cannot be said with fetch: duplicate or
 * oversized headers, bytes that are not UTF-8 in a header, a Content-Length that lies, a body that stops half way.
 */
export interface WireRequest {
  method: string;
  /** The request target exactly as sent (already percent-encoded, or deliberately not). */
  target: string;
  /** In order; duplicates allowed. Host and Connection: close are added unless present. */
  headers: Array<[string, string | Buffer]>;
  /** Content-Length is added from it unless a header sets one (a lie, say) or the body is chunked. */
  body?: Buffer;
  /** Stop after this many bytes of the whole request: `end` half-closes (FIN), `destroy` resets at once. */
  cut?: { afterBytes: number; how: 'end' | 'destroy' };
}

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** What became of one request: an answer, no answer (the connection closed first), or no answer in time. */
export type WireOutcome = { kind: 'response'; response: WireResponse; ms: number } | { kind: 'closed'; ms: number; error?: string } | { kind: 'timeout'; ms: number };

export function serialize(request: WireRequest, host: string): Buffer {
  const names = new Set(request.headers.map(([name]) => name.toLowerCase()));
  const head: Buffer[] = [Buffer.from(`${request.method} ${request.target} HTTP/1.1\r\n`, 'latin1')];
  const line = (name: string, value: string | Buffer) => head.push(Buffer.concat([Buffer.from(`${name}: `, 'latin1'), Buffer.isBuffer(value) ? value : Buffer.from(value, 'latin1'), Buffer.from('\r\n')]));
  if (!names.has('host')) line('host', host);
  if (!names.has('connection')) line('connection', 'close');
  for (const [name, value] of request.headers) line(name, value);
  if (request.body && !names.has('content-length') && !names.has('transfer-encoding')) line('content-length', String(request.body.length));
  head.push(Buffer.from('\r\n'));
  return Buffer.concat([...head, ...(request.body ? [request.body] : [])]);
}

/**
 * Sends one request on a new connection and reads the answer: status line, headers, and a body framed by
 * Content-Length, chunked encoding or the close. Interim 1xx answers are skipped.
 */
export function send(url: URL, request: WireRequest, timeoutMs: number): Promise<WireOutcome> {
  const bytes = serialize(request, url.host);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 80) });
    let received = Buffer.alloc(0);
    let settled = false;
    const done = (outcome: WireOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done({ kind: 'timeout', ms: ms() }), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseResponse(received, false);
      if (parsed) done({ kind: 'response', response: parsed, ms: ms() });
    });
    socket.on('end', () => {
      const parsed = parseResponse(received, true);
      done(parsed ? { kind: 'response', response: parsed, ms: ms() } : { kind: 'closed', ms: ms() });
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const parsed = parseResponse(received, true);
      done(parsed ? { kind: 'response', response: parsed, ms: ms() } : { kind: 'closed', ms: ms(), error: error.code ?? error.message });
    });
    socket.on('close', () => {
      const parsed = parseResponse(received, true);
      done(parsed ? { kind: 'response', response: parsed, ms: ms() } : { kind: 'closed', ms: ms() });
    });
    socket.once('connect', () => {
      const cut = request.cut;
      if (!cut) {
        socket.write(bytes);
        return;
      }
      socket.write(bytes.subarray(0, Math.min(cut.afterBytes, bytes.length)), () => {
        if (cut.how === 'destroy') done({ kind: 'closed', ms: ms(), error: 'cut by the fuzz' });
        else socket.end();
      });
    });
  });
}

/** The first complete non-1xx response in `data`, or null while it is incomplete (`ended`: nothing more will come). */
export function parseResponse(data: Buffer, ended: boolean): WireResponse | null {
  let offset = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', offset);
    if (headEnd < 0) return null;
    const lines = data.subarray(offset, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) return null;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const bodyStart = headEnd + 4;
    if (status >= 100 && status < 200) {
      offset = bodyStart;
      continue;
    }
    if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (data.length - bodyStart < length) return ended ? { status, headers, body: data.subarray(bodyStart) } : null;
      return { status, headers, body: data.subarray(bodyStart, bodyStart + length) };
    }
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const body = dechunk(data.subarray(bodyStart));
      if (body) return { status, headers, body };
      return ended ? { status, headers, body: data.subarray(bodyStart) } : null;
    }
    return ended ? { status, headers, body: data.subarray(bodyStart) } : null;
  }
}

function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', offset);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(offset, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}
