// The load generator, run as its own process (pinned to another core than the servers):
// autocannon against one URL; `signed` bodies are made unique per request and signed, as real
// webhooks are. Prints autocannon's result as one JSON line.
import crypto from 'node:crypto';
import autocannon from 'autocannon';
import { sandboxOrder } from '../../src/sandbox/pos/server.js';
import { signBody } from '../../src/webhooks/signature.js';

type Job = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  rate?: number;
  signed?: { secret: string; kind: 'driver' | 'order'; storeId?: string; orderId?: string };
};

const job = JSON.parse(process.argv[2]!) as Job;

function signedRequest(): { body: string; headers: Record<string, string> } {
  const s = job.signed!;
  const payload =
    s.kind === 'order'
      ? { type: 'order.created', object: sandboxOrder(s.storeId!, { fulfillment_type: 'pickup', sent_at: Date.now() }) }
      : { type: 'order.assign.driver', object: { order_id: s.orderId, location_id: 'loc', driver: { name: `D ${crypto.randomUUID()}`, phone: { number: '1', code: '+1' }, source: 'bench' } } };
  const body = JSON.stringify(payload);
  return { body, headers: { 'content-type': 'application/json', 'webhook-id': crypto.randomUUID(), 'service-webhook-signature': signBody(body, s.secret) } };
}

const instance = autocannon(
  {
    url: job.url,
    method: job.method ?? 'GET',
    headers: job.headers,
    body: job.body,
    connections: job.connections,
    duration: job.duration,
    ...(job.rate ? { overallRate: job.rate } : {}),
    ...(job.signed
      ? {
          requests: [
            {
              setupRequest: (request: autocannon.Request) => {
                const { body, headers } = signedRequest();
                return { ...request, method: 'POST' as const, body, headers: { ...request.headers, ...headers } };
              },
            },
          ],
        }
      : {}),
  },
  (error, result) => {
    if (error) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    process.stdout.write(`${JSON.stringify({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, total: result.requests.total })}\n`);
  },
);
void instance;
