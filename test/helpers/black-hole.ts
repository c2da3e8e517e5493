import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 to a server (PostgreSQL) that can be cut as a network cut does: once `cut()`,
 * nothing more is forwarded either way and new connections are taken but never answered, while every
 * socket stays open (no FIN, no RST): the process behind it sees only silence, as behind a dead router.
 * `heal()` forwards again what was held back, as a healed route delivers what TCP sent again.
 */
export class BlackHole {
  private cutOff = false;
  private readonly pairs = new Set<[Socket, Socket]>();
  private readonly held = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly targetPort: number,
  ) {}

  static async start(targetPort: number): Promise<BlackHole> {
    const server = createServer();
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const hole = new BlackHole(server, (server.address() as { port: number }).port, targetPort);
    server.on('connection', (client: Socket) => hole.relay(client, targetPort));
    return hole;
  }

  /** `databaseUrl` with its host and port replaced by this relay's. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  private relay(client: Socket, targetPort: number, sent: Buffer[] = []): void {
    // Taken while cut: held open and silent, without reaching the server, until healed.
    if (this.cutOff) {
      if (sent.length > 0) client.unshift(Buffer.concat(sent));
      client.pause();
      this.held.add(client);
      client.on('close', () => this.held.delete(client)).on('error', () => client.destroy());
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const chunk of sent) upstream.write(chunk);
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    // Data is read only while not cut: what is sent meanwhile waits in the sockets' buffers.
    client.on('data', (chunk) => upstream.write(chunk));
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  }

  cut(): void {
    this.cutOff = true;
    for (const pair of this.pairs) for (const socket of pair) socket.pause();
  }

  heal(): void {
    this.cutOff = false;
    for (const pair of this.pairs) for (const socket of pair) socket.resume();
    for (const client of this.held) {
      this.held.delete(client);
      client.removeAllListeners('close');
      // A connection its client gave up on during the cut never reached the server, as a SYN lost on a
      // cut route: what it had sent is read first, and if it ended meanwhile nothing is forwarded.
      const chunks: Buffer[] = [];
      const keep = (chunk: Buffer) => chunks.push(chunk);
      client.on('data', keep).resume();
      setTimeout(() => {
        client.off('data', keep);
        if (client.readableEnded || client.destroyed) return void client.destroy();
        this.relay(client, this.targetPort, chunks);
      }, 20);
    }
  }

  async close(): Promise<void> {
    for (const pair of this.pairs) for (const socket of pair) socket.destroy();
    for (const client of this.held) client.destroy();
    await new Promise((ok) => this.server.close(ok));
  }
}
