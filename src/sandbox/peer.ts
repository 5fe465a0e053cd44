// What every sandbox peer shares (docs/reference.md § Sandbox peers): a record of the calls it got, failure
// injection, and reset. A sandbox peer is a real HTTP server on loopback, not a mock.
import Fastify, { type FastifyInstance } from 'fastify';

/** A call the peer got: `body` as JSON (or text); `raw`, the exact text, for a peer that reads
 * bytes (a signed body). */
export type Received = { method: string; path: string; headers: Record<string, unknown>; body: unknown; raw?: string; at: number };

/** A body kept as bytes, shown as the JSON it holds (or its text). */
function readable(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export type Peer = {
  app: FastifyInstance;
  received: Received[];
  /** Waits until `count` calls to `path` have arrived (tests and the demo). */
  waitFor: (path: string, count?: number, timeoutMs?: number) => Promise<Received[]>;
};

/** A peer named for whoever opens its address (`what`: "the sandbox POS, …"). */
export function createPeer(what = 'a sandbox peer'): Peer {
  // A menus publish carries up to a whole catalog (CATALOG_MAX_BYTES, 10 MB by default).
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
  // Its controls as they are registered, for GET / (the service's front page links the peer).
  const controls: string[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/v1/_sandbox/')) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') controls.push(`${method} ${route.url}`);
  });
  const received: Received[] = [];
  const failures = new Map<string, { count: number; status: number }>();
  const slowdowns = new Map<string, { count: number; delayMs: number }>();
  const waiters = new Set<() => void>();

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    if (path.startsWith('/v1/_sandbox/')) return;
    const failure = failures.get(path);
    if (failure && failure.count > 0) {
      failure.count -= 1;
      if (failure.status === 0) {
        request.raw.socket.destroy();
        return reply.hijack();
      }
      return reply.status(failure.status).send({ error: 'sandbox_failure', message: `the sandbox was told to fail ${path}` });
    }
    const slowdown = slowdowns.get(path);
    if (slowdown && slowdown.count > 0) {
      slowdown.count -= 1;
      await new Promise((resolve) => setTimeout(resolve, slowdown.delayMs));
      // A sender that hung up meanwhile (it was killed) never hears an answer: the call is
      // dropped unrecorded, and the sender's idempotency key covers a repeat either way.
      if (request.raw.socket.destroyed) return reply.hijack();
    }
  });

  app.addHook('preHandler', async (request) => {
    const path = request.url.split('?')[0]!;
    // The authorize form is the merchant's browser, not the service.
    if (path.startsWith('/v1/_sandbox/') || path === '/v1/authorize' || path === '/') return;
    const bytes = Buffer.isBuffer(request.body) ? request.body : null;
    received.push({
      method: request.method,
      path,
      headers: { ...request.headers },
      body: bytes ? readable(bytes) : (request.body ?? null),
      ...(bytes ? { raw: bytes.toString('utf8') } : {}),
      at: Date.now(),
    });
    for (const wake of waiters) wake();
  });

  app.get('/', async () => ({ peer: what, controls, guide: 'docs/api-guide.md#sandbox-peers' }));
  app.get('/v1/_sandbox/received', async () => ({ received }));
  app.post<{ Body: { path?: string; count?: number; status?: number } }>('/v1/_sandbox/fail', async (request, reply) => {
    const { path, count = 1, status = 500 } = request.body ?? {};
    if (!path?.startsWith('/')) return reply.status(400).send({ error: 'invalid_request', message: 'path must start with /' });
    failures.set(path, { count, status });
    return { path, count, status };
  });
  app.post<{ Body: { path?: string; count?: number; delay_ms?: number } }>('/v1/_sandbox/slow', async (request, reply) => {
    const { path, count = 1, delay_ms: delayMs = 1000 } = request.body ?? {};
    if (!path?.startsWith('/')) return reply.status(400).send({ error: 'invalid_request', message: 'path must start with /' });
    if (!Number.isInteger(delayMs) || delayMs < 0 || delayMs > 60_000)
      return reply.status(400).send({ error: 'invalid_request', message: 'delay_ms must be an integer from 0 to 60000' });
    slowdowns.set(path, { count, delayMs });
    return { path, count, delay_ms: delayMs };
  });
  app.post('/v1/_sandbox/reset', async () => {
    received.length = 0;
    failures.clear();
    slowdowns.clear();
    return { reset: true };
  });

  const waitFor = (path: string, count = 1, timeoutMs = 15_000) =>
    new Promise<Received[]>((resolve, reject) => {
      const check = () => {
        const hits = received.filter((r) => r.path === path);
        if (hits.length < count) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(hits);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`waited ${timeoutMs} ms for ${count} call(s) to ${path}; got ${received.filter((r) => r.path === path).length}`));
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  return { app, received, waitFor };
}

/** Listens on `port`, or on any free port when that one is taken (a second service on the
 * machine): a sandbox peer's port is a convenience, never a reason not to start. */
export async function listen(app: FastifyInstance, port = 0, host = '127.0.0.1'): Promise<string> {
  try {
    await app.listen({ port, host });
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await app.listen({ port: 0, host });
  }
  const address = app.server.address();
  return `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
}
