export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborted when the node stops: the attempt then counts for nothing and stays pending. */
  stop: AbortSignal;
}

export type SendResult =
  | { kind: 'delivered'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'retry'; status?: number; error: string }
  | { kind: 'stopped' };

/**
 * One POST of a signal. 2xx is delivered, 410 means the receiver wants no more of it, anything else
 * (other statuses, redirects, which are not followed, timeouts, refused connections) is retried.
 */
export async function sendSignal(request: SendRequest): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...request.headers },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.any([request.stop, AbortSignal.timeout(request.timeoutMs)]),
    });
  } catch (error) {
    if (request.stop.aborted) return { kind: 'stopped' };
    const e = error as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError') return { kind: 'retry', error: `no answer within ${request.timeoutMs} ms` };
    return { kind: 'retry', error: e.cause?.code ?? e.cause?.message ?? e.message };
  }
  // The answer's body means nothing to us; release the connection without reading it.
  await response.body?.cancel().catch(() => undefined);
  const { status } = response;
  if (status >= 200 && status < 300) return { kind: 'delivered', status };
  if (status === 410) return { kind: 'gone', status };
  return { kind: 'retry', status, error: `receiver answered ${status}` };
}
