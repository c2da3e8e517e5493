import { IncomingMessage, ServerResponse, type ServerOptions } from 'node:http';
import type { Express } from 'express';

/**
 * The request and response classes of one HTTP server, whose prototypes the express app it serves takes
 * as its own. Express 5 gives every request its app's prototypes with Object.setPrototypeOf; in V8 the
 * objects changed so stay alive until the next scavenge, which then copies every request since the last
 * one, with pauses several times longer than when the requests are born with the app's prototypes
 * (figures: bench/results/2026-12-08-comment-figures.md). With the classes below, express's set finds
 * the prototype already in place and changes nothing.
 */
export class ServerClasses {
  readonly IncomingMessage = class AppRequest extends IncomingMessage {};
  readonly ServerResponse = class AppResponse extends ServerResponse {};

  /** For createServer: requests and responses made from these classes. */
  get options(): ServerOptions {
    return { IncomingMessage: this.IncomingMessage, ServerResponse: this.ServerResponse } as ServerOptions;
  }

  /** Puts the classes' prototypes in front of `app`'s, and makes them what express sets each request to. */
  serve(app: Express): void {
    const request = this.IncomingMessage.prototype;
    const response = this.ServerResponse.prototype;
    if (app.request === request) return;
    Object.setPrototypeOf(request, app.request);
    Object.setPrototypeOf(response, app.response);
    app.request = request as unknown as Express['request'];
    app.response = response as unknown as Express['response'];
  }
}
