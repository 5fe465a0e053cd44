// The sandbox event provider (docs/reference.md § Event-provider interface): verifies X-Service-Signature on
// order.confirmed, answers 201 with a JSON string, and shortly after assigns a driver by sending
// the service a signed order.assign.driver webhook.
import crypto from 'node:crypto';
import { createPeer, listen, type Peer } from '../peer.js';
import { signBody, verifySignature } from '../../common/signatures.js';

export type SandboxEventProviderOptions = {
  /** Verifies our X-Service-Signature and signs its webhooks to us. */
  secret: string;
  service?: { url: string; provider: string };
  driverDelayMs?: number;
  port?: number;
};

export type SandboxEventProvider = Peer & { url: string; close: () => Promise<void> };

export async function startSandboxEventProvider(options: SandboxEventProviderOptions): Promise<SandboxEventProvider> {
  const peer = createPeer(
    'the sandbox event provider (provider sandbox-events): takes order.confirmed at POST /v1/events and assigns a driver',
  );
  const { app } = peer;
  // The signature covers the exact bytes: keep them.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const timers = new Set<NodeJS.Timeout>();

  app.post('/v1/events', async (request, reply) => {
    const raw = request.body as Buffer;
    if (!verifySignature(raw, request.headers['x-service-signature'] as string | undefined, options.secret)) {
      return reply.status(401).send({ error: 'invalid_signature', message: 'X-Service-Signature does not match the body' });
    }
    const event = JSON.parse(raw.toString('utf8')) as { type?: string; location_id?: string; reference_id?: string };
    if (event.type === 'order.confirmed' && options.service && event.reference_id) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        const body = JSON.stringify({
          type: 'order.assign.driver',
          object: {
            location_id: event.location_id,
            order_id: event.reference_id,
            driver: { name: 'Dana Driver', phone: { number: '5125550199', code: '+1' }, source: 'sandbox-fleet' },
          },
        });
        void fetch(`${options.service!.url}/v1/webhooks/event-providers/${options.service!.provider}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': crypto.randomUUID(),
            'service-webhook-signature': signBody(body, options.secret),
          },
          body,
        }).catch(() => {});
      }, options.driverDelayMs ?? 100);
      timers.add(timer);
    }
    return reply.status(201).type('application/json').send(JSON.stringify('accepted'));
  });

  const url = await listen(app, options.port);
  return {
    ...peer,
    url,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await app.close();
    },
  };
}
