// The delivery worker: claims due outbox messages, sends them, and records the outcome.
// 2xx: delivered. Network errors, timeouts, 429 (honouring Retry-After) and 5xx: retried with
// exponential backoff and jitter. Other 4xx: the receiver refused it, retrying cannot help:
// dead at once. After the last attempt: dead, visible with its attempts and last error.
// Claims are conditional updates, so any number of workers (and instances) share the table and
// a message is sent by one at a time; a worker that dies mid-send leaves a lock that expires.
import type { Services } from '../graphql/context.js';
import { callForOnboarding, send, describeFailure, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl, requireProvider } from '../modules/providers/service.js';

const LOCK_MS = 60_000;
const BATCH = 32;

type Message = NonNullable<Awaited<ReturnType<Services['db']['outboxMessage']['findUnique']>>>;

/** Signs an outgoing body for a provider that expects a signature (event providers). */
export type BodySigner = (source: string, body: string) => Promise<Record<string, string>>;

export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  readonly signers: BodySigner[] = [];

  constructor(
    private readonly services: Services,
    private readonly pollMs = 500,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Run now: called right after a transaction that wrote to the outbox commits. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const claimed = await this.claim();
        if (!claimed.length) return;
        await Promise.all(claimed.map((m) => this.deliver(m)));
        if (this.stopped) return;
      }
    } catch (error) {
      this.services.log.error({ err: error }, 'delivery worker failed; will retry');
    }
  }

  private async claim(): Promise<Message[]> {
    const { db } = this.services;
    const now = new Date();
    const due = await db.outboxMessage.findMany({
      where: { status: 'pending', nextAttemptAt: { lte: now }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
      orderBy: { createdAt: 'asc' },
      take: BATCH,
    });
    const claimed: Message[] = [];
    for (const message of due) {
      const taken = await db.outboxMessage.updateMany({
        where: { id: message.id, status: 'pending', OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
        data: { lockedUntil: new Date(now.getTime() + LOCK_MS), attempts: { increment: 1 } },
      });
      if (taken.count === 1) claimed.push({ ...message, attempts: message.attempts + 1 });
    }
    return claimed;
  }

  private async send(message: Message): Promise<ProviderResponse> {
    const headers: Record<string, string> = { 'idempotency-key': message.idempotencyKey, 'content-type': 'application/json' };
    const body = JSON.parse(message.body) as unknown;
    for (const sign of this.signers) Object.assign(headers, await sign(message.source, message.body));
    if (message.onboardingId) {
      return callForOnboarding(this.services, message.source, message.onboardingId, message.operation as never, { method: 'POST', headers, json: body, retries: 0 });
    }
    const provider = await requireProvider(this.services, message.source);
    return send(this.services, 'POST', providerUrl(provider, message.operation as never), { headers, json: body, retries: 0 });
  }

  private async deliver(message: Message): Promise<void> {
    const { db, config, log } = this.services;
    let response: ProviderResponse | undefined;
    let error: string;
    try {
      response = await this.send(message);
      if (response.status >= 200 && response.status < 300) {
        await db.outboxMessage.update({
          where: { id: message.id },
          data: { status: 'delivered', deliveredAt: new Date(), lockedUntil: null, lastStatus: response.status, lastError: null },
        });
        log.debug({ message: message.id, kind: message.kind }, 'delivered');
        return;
      }
      error = describeFailure(response);
    } catch (failure) {
      error = (failure as Error).message;
    }

    const status = response?.status;
    const retryable = status === undefined || status === 408 || status === 429 || status >= 500;
    const last = message.attempts >= config.outbox.maxAttempts;
    if (!retryable || last) {
      await db.outboxMessage.update({ where: { id: message.id }, data: { status: 'dead', lockedUntil: null, lastStatus: status ?? null, lastError: error } });
      log.warn({ message: message.id, kind: message.kind, attempts: message.attempts, error }, 'dead-lettered');
      return;
    }
    const delay = retryDelay(message.attempts, config.outbox, response);
    await db.outboxMessage.update({
      where: { id: message.id },
      data: { nextAttemptAt: new Date(Date.now() + delay), lockedUntil: null, lastStatus: status ?? null, lastError: error },
    });
  }
}

/** Exponential backoff with full jitter; a 429's Retry-After (seconds or a date) wins. */
export function retryDelay(attempts: number, policy: { retryBaseMs: number; retryMaxMs: number }, response?: ProviderResponse): number {
  const header = response?.status === 429 ? response.headers['retry-after'] : undefined;
  const retryAfter = typeof header === 'string' ? (/^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - Date.now()) : NaN;
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, policy.retryMaxMs);
  const ceiling = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** (attempts - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}
