import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  method: string;
  body: string;
  json: any;
  at: number;
  /** What the receiver answered (or 0 when it never answered). */
  answered: number;
}

/** What to do with the n-th request (0-based): answer with a status, or never answer. */
export type Responder = (received: Received, n: number) => number | 'hang';

/** A webhook receiver on 127.0.0.1 that records every request, for checking signals end to end. */
export class SignalReceiver {
  readonly received: Received[] = [];
  /** How long each answer waits (a receiver that takes its time keeps attempts in flight). */
  delayMs = 0;
  private waiters: (() => void)[] = [];
  private readonly hanging = new Set<ServerResponse>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    public respond: Responder,
  ) {}

  static async start(respond: Responder = () => 204, port = 0): Promise<SignalReceiver> {
    const server = createServer();
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => ok());
    });
    const receiver = new SignalReceiver(server, (server.address() as AddressInfo).port, respond);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        const received: Received = { headers: req.headers, method: req.method ?? '', body, json, at: Date.now(), answered: 0 };
        const answer = receiver.respond(received, receiver.received.length);
        receiver.received.push(received);
        if (answer === 'hang') {
          receiver.hanging.add(res);
        } else {
          received.answered = answer;
          res.statusCode = answer;
          if (receiver.delayMs > 0) setTimeout(() => res.end(), receiver.delayMs);
          else res.end();
        }
        for (const wake of receiver.waiters.splice(0)) wake();
      });
    });
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  /** Requests whose JSON is about one consignment. */
  about(globalId: string): Received[] {
    return this.received.filter((r) => r.json?.consignment?.globalId === globalId);
  }

  /** Resolves once `done(received)` holds; fails after `timeoutMs` with what was received. */
  async until(done: (received: Received[]) => boolean, timeoutMs = 15_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!done(this.received)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`receiver: condition not met within ${timeoutMs} ms; received ${JSON.stringify(this.received.map((r) => r.json))}`);
      await new Promise<void>((ok) => {
        const timer = setTimeout(ok, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          ok();
        });
      });
    }
    return this.received;
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }
}

/** Standard Webhooks verification written from the convention with node:crypto, independent of the node's library. */
export function signatureValid(secret: string, received: Received): boolean {
  const id = received.headers['webhook-id'];
  const timestamp = received.headers['webhook-timestamp'];
  const signatures = received.headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signatures !== 'string') return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${timestamp}.${received.body}`).digest('base64'));
  return signatures.split(' ').some((s) => {
    const [version, signature] = s.split(',');
    const given = Buffer.from(signature ?? '');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export const testSecret = (seed: string): string => `whsec_${Buffer.from(`test-key-${seed}-0123456789abcdef`).toString('base64')}`;

export const pause = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));
