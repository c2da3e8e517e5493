import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readConfig, type Config } from '../../src/config.js';
import { applyServerLimits, readServerLimits, serverOptions } from '../../src/adapters/http/server-limits.js';
import { createLogger, type Logger } from '../../src/core/logger.js';
import { createNode, type DataspaceNode } from '../../src/node.js';
import type { Clock } from '../../src/core/ports/clock.js';
import { projectRoot } from '../../src/core/project-paths.js';
import { clearExternalStore, externalStoreEnv, replicaDatabaseUrl, replicaOwnState } from './external-store.js';
import { spreadAddresses, spreadMode, startSpreadSet } from './spread-set.js';
import { ServerClasses } from '../../src/adapters/http/server-classes.js';
import { scratchDir } from './scratch-dirs.js';
import { createPayloadValidator, type PayloadValidator } from '../../src/core/validation/index.js';

let validator: Promise<PayloadValidator> | undefined;
/** Compiling the shapes takes a moment; every test node shares one validator. */
const sharedValidator = (): Promise<PayloadValidator> => (validator ??= createPayloadValidator());

export const TEST_SEED = resolve(projectRoot, 'test', 'fixtures', 'seed.json');

export const USERS = {
  forwarder: { email: 'ops@forwarder.example', password: 'forwarder-pass', org: 'did:web:forwarder.example' },
  otherForwarder: { email: 'ops@other-forwarder.example', password: 'other-pass', org: 'did:web:other-forwarder.example' },
  border: { email: 'officer@border.example', password: 'border-pass', org: 'did:web:border.example' },
  douane: { email: 'agent@douane.example', password: 'douane-pass', org: 'did:web:douane.example' },
  port: { email: 'desk@port.example', password: 'port-pass', org: 'did:web:port.example' },
  rotterdam: { email: 'desk@rotterdam.example', password: 'rotterdam-pass', org: 'did:web:rotterdam.example' },
} as const;

export type UserName = keyof typeof USERS;

/** Logs `user` in at the node at `url` and returns the access token from its cookie. */
export async function logIn(url: string, user: UserName): Promise<string> {
  const { email, password } = USERS[user];
  const res = await fetch(`${url}/authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const token = /access_token=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (res.status !== 200 || !token) throw new Error(`login ${user}: ${res.status} ${await res.text()}`);
  return token;
}

export interface HttpAnswer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A node on 127.0.0.1 with its own temporary data dir, driven over real HTTP. */
export class TestNode {
  private tokens = new Map<string, string>();
  /** The last commit position an answer gave (a replica set's Dataspace-Position), sent back on every request. */
  private position = 0;

  private constructor(
    readonly node: DataspaceNode,
    readonly server: Server,
    readonly url: string,
    readonly config: Config,
    private readonly ownsDataDir: boolean,
    /** In spread mode (test/helpers/spread-set.ts): closes the follower and the proxy. */
    private readonly closeSpread?: () => Promise<void>,
  ) {}

  /** `clock`: the time the node stamps (core/ports/clock.ts), the machine's unless given; not carried to a spread set. */
  static async start(env: Record<string, string> = {}, dataDir?: string, logger?: Logger, clock?: Clock): Promise<TestNode> {
    const dir = dataDir ?? scratchDir('dataspace-test-');
    // Listen first, so links the node writes (href, Link) carry the real address.
    const classes = new ServerClasses();
    const server = createServer({ ...serverOptions(readServerLimits(env)), ...classes.options });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
    const port = (server.address() as AddressInfo).port;
    const spread = spreadMode() ? await spreadAddresses() : undefined;
    const url = spread?.url ?? `http://127.0.0.1:${port}`;
    const settings = {
      DATASPACE_SEED: TEST_SEED,
      DATASPACE_DATA_DIR: dir,
      JWT_SECRET: 'test-secret-0123456789abcdef',
      DATASPACE_FSYNC: 'off',
      // Payloads are read on the test's thread with the shared validator unless a test asks for threads.
      DATASPACE_READER_THREADS: '0',
      // Signal tests deliver to receivers on 127.0.0.1: listed, so the public-only default stays the default.
      DATASPACE_NOTIFY_ALLOW: '*,127.0.0.1',
      PORT: String(port),
      DATASPACE_BASE_URL: url,
      ...externalStoreEnv(),
      ...env,
    };
    const config = readConfig(settings);
    if (dataDir === undefined) await clearExternalStore();
    const log = logger ?? createLogger(process.env.DATASPACE_LOG ?? 'silent');
    const serve = (app: DataspaceNode['app']) => {
      applyServerLimits(server, config.server);
      classes.serve(app);
      server.on('request', app);
    };
    let node: DataspaceNode;
    let closeSpread: (() => Promise<void>) | undefined;
    try {
      const ownState = await replicaOwnState(dir);
      if (spread && ownState) {
        ({ node, closeFollower: closeSpread } = await startSpreadSet({
          config,
          followerConfig: readConfig({ ...settings, PORT: String(spread.follower.port) }),
          databaseUrl: replicaDatabaseUrl(dir)!,
          ownState,
          logger: log,
          validator: await sharedValidator(),
          addresses: spread,
          serveWriter: serve,
        }));
      } else {
        node = await createNode(config, log, { validator: await sharedValidator(), ownState, ...(clock && { clock }) });
        serve(node.app);
      }
    } catch (error) {
      server.close();
      spread?.follower.server.close();
      throw error;
    }
    return new TestNode(node, server, url, config, dataDir === undefined, closeSpread);
  }

  async stop(removeData = true): Promise<void> {
    await this.closeSpread?.();
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
    await this.node.close();
    if (removeData && this.ownsDataDir) rmSync(this.config.dataDir, { recursive: true, force: true });
  }

  async request(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> } = {},
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.position > 0) headers['dataspace-position'] ??= String(this.position);
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${this.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await res.text();
    this.position = Math.max(this.position, Number(res.headers.get('dataspace-position') ?? 0) || 0);
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text.length > 0) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  async login(user: UserName): Promise<string> {
    const cached = this.tokens.get(user);
    if (cached) return cached;
    const token = await logIn(this.url, user);
    this.tokens.set(user, token);
    return token;
  }

  async as(user: UserName, method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    return this.request(method, path, { body, token: await this.login(user) });
  }

  /** POSTs an activity to the inbox as `user`. */
  async publish(user: UserName, activity: unknown): Promise<HttpAnswer> {
    return this.as(user, 'POST', '/supply-chain/data-space/inbox', activity);
  }
}
