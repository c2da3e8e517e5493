import { HostPolicy } from '../documents/host-policy.js';
import type { Logger } from '../logger.js';
import type { NotificationEndpoints } from './endpoints.js';
import type { NotifyConfig } from './notify-config.js';
import type { DeliveryDetails } from './outbox.js';
import { sendSignal, type SendResult } from './send-signal.js';
import { webhookHeaders } from './signing.js';

export interface WebhookSenderDeps {
  endpoints: NotificationEndpoints;
  config: NotifyConfig;
  logger: Logger;
  nodeName: string;
}

/**
 * One attempt at a delivery: the receiver's endpoint as registered now, the signal's body signed with
 * its secret under the signal's id (the webhook id, the same on every attempt and from every replica).
 * Shared by the in-process deliverer and a replica set's (replicas/signals/).
 */
export class WebhookSender {
  private readonly unsigned = new Set<string>();
  /** Endpoints registered over the API reach only what DATASPACE_NOTIFY_ALLOW allows. */
  private readonly policy: HostPolicy;

  constructor(private readonly deps: WebhookSenderDeps) {
    this.policy = new HostPolicy(deps.config.allow ?? ['*']);
  }

  send(receiver: string, details: DeliveryDetails, at: Date, stop: AbortSignal): Promise<SendResult> {
    const endpoint = this.deps.endpoints.of(receiver);
    if (!endpoint) return Promise.resolve({ kind: 'retry', error: 'the receiver has no notification endpoint' });
    let headers: Record<string, string>;
    try {
      headers = webhookHeaders(details.signal, details.body, endpoint.secret, at);
    } catch (error) {
      return Promise.resolve({ kind: 'retry', error: `the receiver's notification secret is unusable: ${(error as Error).message}` });
    }
    if (endpoint.secret === undefined && !this.unsigned.has(receiver)) {
      this.unsigned.add(receiver);
      this.deps.logger.warn('sending unsigned signals: the receiver has no notificationSecret', { receiver });
    }
    return sendSignal({
      url: endpoint.url,
      body: details.body,
      headers: { ...headers, 'user-agent': this.deps.nodeName },
      timeoutMs: this.deps.config.timeoutMs,
      stop,
      policy: endpoint.trusted ? undefined : this.policy,
    });
  }
}
