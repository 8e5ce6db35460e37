import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1: records every request and answers with the next status of `statuses` (then 200). */
export class Receiver {
  readonly received: Received[] = [];
  /** Answer 503 to everything while true. */
  down = false;
  private server?: Server;
  constructor(private readonly statuses: number[] = []) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.statusCode = this.down ? 503 : (this.statuses.shift() ?? 200);
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** The bodies received, parsed, of one type. */
  events(type: string): Array<{ type: string; timestamp: string; data: any }> {
    return this.received.map((r) => JSON.parse(r.body)).filter((event) => event.type === type);
  }

  /** The requests received about one job. */
  forJob(jobId: string): Received[] {
    return this.received.filter((r) => JSON.parse(r.body).data?.jobId === jobId);
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
