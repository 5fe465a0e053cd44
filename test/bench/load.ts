// The load generator, run as its own process (pinned to another core than the servers). Without
// a rate: autocannon as fast as the server answers. With a rate: a steady pace, one request
// every 1/rate s on a pool of keep-alive connections (autocannon's own rate sends each second's
// requests back to back at the start of the second: bursts, not a steady rate). `signed` bodies
// are made unique per request and signed, as real webhooks are. `warmup` seconds at the same
// pace go first, unmeasured: this process's own first requests (cold code, new connections)
// otherwise make the slowest percent of a short run. Prints one JSON line.
import crypto from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import { sandboxOrder } from '../../src/sandbox/pos/server.js';
import { signBody } from '../../src/common/signatures.js';
import { percentile, tenths } from './stats.js';

type Job = {
  url: string;
  /** With a rate: the requests go to these in turn (several instances behind one balancer). */
  urls?: string[];
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  rate?: number;
  warmup?: number;
  signed?: { secret: string; kind: 'driver' | 'order'; storeId?: string; orderIds?: string[] };
};
type Result = { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number };

const job = JSON.parse(process.argv[2]!) as Job;

function signedRequest(): { body: string; headers: Record<string, string> } {
  const s = job.signed!;
  const payload =
    s.kind === 'order'
      ? { type: 'order.created', object: sandboxOrder(s.storeId!, { fulfillment_type: 'pickup', sent_at: Date.now() }) }
      : {
          type: 'order.assign.driver',
          object: {
            // Reports spread over many orders, as a provider's are: a few per order.
            order_id: s.orderIds![Math.floor(Math.random() * s.orderIds!.length)],
            location_id: 'loc',
            driver: { name: `D ${crypto.randomUUID()}`, phone: { number: '1', code: '+1' }, source: 'bench' },
          },
        };
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'webhook-id': crypto.randomUUID(),
      'service-webhook-signature': signBody(body, s.secret),
    },
  };
}

function asFastAsAnswered(): Promise<Result> {
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: job.url,
        method: job.method ?? 'GET',
        headers: job.headers,
        body: job.body,
        connections: job.connections,
        duration: job.duration,
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
      (error, result) =>
        error
          ? reject(error)
          : resolve({
              rps: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              non2xx: result.non2xx,
              errors: result.errors,
              total: result.requests.total,
            }),
    ),
  );
}

async function steady(rate: number): Promise<Result> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.connections });
  if (job.warmup) await pace(agent, rate, job.warmup);
  const result = await pace(agent, rate, job.duration);
  agent.destroy();
  return result;
}

/** Sends `rate` requests a second for `seconds` and waits for every answer. */
async function pace(agent: http.Agent, rate: number, seconds: number): Promise<Result> {
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const one = (url: string) =>
    new Promise<void>((done) => {
      const { body, headers } = job.signed ? signedRequest() : { body: job.body, headers: job.headers ?? {} };
      const started = performance.now();
      const request = http.request(url, { method: job.signed ? 'POST' : (job.method ?? 'GET'), headers, agent }, (response) => {
        response.resume();
        response.on('end', () => {
          latencies.push(performance.now() - started);
          if (response.statusCode! < 200 || response.statusCode! >= 300) non2xx++;
          done();
        });
      });
      request.on('error', () => {
        errors++;
        done();
      });
      request.end(body);
    });
  const urls = job.urls ?? [job.url];
  const total = Math.round(rate * seconds);
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  let sent = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate) + 1);
    while (sent < due) {
      sent++;
      inFlight.push(one(urls[sent % urls.length]!));
    }
    // The pace itself is a timer: the requests due by now are sent, and the next are due in time.
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inFlight);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => tenths(percentile(latencies, p));
  return { rps: latencies.length / elapsed, p50: pct(50), p99: pct(99), non2xx, errors, total: latencies.length };
}

try {
  const result = job.rate ? await steady(job.rate) : await asFastAsAnswered();
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
}
