// Applies stored webhooks, in the order they arrived, with retries: a failure is retried with
// backoff and, after the last attempt, left as `failed` with its error (logged, and visible in
// the table), never dropped silently.
import type { Services } from '../services.js';
import type { WebhookEvent as StoredWebhook } from '../db/client.js';
import { backoff, tableRunner, type Runner } from '../delivery/runner.js';
import { release } from '../db/sql/work.js';
import type { Channel, WebhookHandlers } from './intake.js';
import { statementsOf } from '../db/statements.js';

export class WebhookProcessor {
  private readonly runner: Runner<StoredWebhook>;

  constructor(
    private readonly services: Services,
    private readonly handlers: WebhookHandlers,
  ) {
    this.runner = tableRunner<StoredWebhook>('webhooks', services, 'inbox', (row) => this.apply(row));
  }

  start = () => {
    this.services.inbox.answerWith(this);
    this.runner.start();
  };
  wake = () => this.runner.wake();
  stop = () => {
    this.services.inbox.answerWith(null);
    return this.runner.stop();
  };

  private async apply(row: StoredWebhook): Promise<void> {
    const { db, config, log } = this.services;
    const handler = this.handlers[row.channel as Channel]?.get(row.type);
    const record = (data: Record<string, unknown>) => statementsOf(db).write(release('inbox', row.id, data));
    try {
      if (!handler?.apply) throw new Error(`no handler applies ${row.channel} ${row.type}`);
      const { object } = JSON.parse(row.body) as { object: Record<string, unknown> };
      await handler.apply(this.services, { id: row.id, source: row.source, type: row.type, object });
      await record({ status: 'applied', appliedAt: new Date(), lastError: null });
      this.services.metrics.webhooksApplied.inc({ type: row.type, outcome: 'applied' });
      this.services.metrics.webhookLag.observe({ type: row.type }, (Date.now() - row.createdAt.getTime()) / 1000);
    } catch (error) {
      const message = (error as Error).message ?? String(error);
      const last = row.attempts >= config.outbox.maxAttempts;
      log[last ? 'error' : 'warn'](
        { webhook: row.id, type: row.type, attempts: row.attempts, err: error },
        last ? 'webhook failed for good' : 'webhook failed; will retry',
      );
      await record(
        last
          ? { status: 'failed', lastError: message }
          : { lastError: message, nextAttemptAt: new Date(Date.now() + backoff(row.attempts, config.outbox)) },
      );
      this.services.metrics.webhooksApplied.inc({ type: row.type, outcome: last ? 'failed' : 'retry' });
    }
  }
}
