// An event provider that gets one rule wrong, for the conformance kit's tests: it checks the
// signature and answers 200 with an object (which the service takes), then makes its `mistake`:
// a new driver for every order.confirmed it gets, a repeat included (`second-driver`); a step
// naming another location, or a status that is none; webhooks signed with another secret; or no
// webhook at all. Its webhooks go to wherever it is pointed (those of an order.confirmed that came
// before, once it is), and it keeps what it was answered.
import http from 'node:http';
import { signBody, verifySignature } from '../../src/common/signatures.js';

export type Mistake = 'second-driver' | 'wrong-location' | 'unknown-status' | 'wrong-secret' | 'no-webhooks';

export async function startCarelessEvents(secret: string, mistake: Mistake = 'second-driver') {
  let target: string | undefined;
  const waiting: { location_id: string; reference_id: string }[] = [];
  const dispatched = new Set<string>();
  const answers: { type: string; status: number; body: unknown }[] = [];
  const dispatch = (event: { location_id: string; reference_id: string }) => {
    if (mistake === 'no-webhooks' || (mistake !== 'second-driver' && dispatched.has(event.reference_id))) return;
    dispatched.add(event.reference_id);
    const address = { location_id: event.location_id, order_id: event.reference_id };
    const step = {
      ...address,
      ...(mistake === 'wrong-location' ? { location_id: 'loc_other' } : {}),
      delivery_status: mistake === 'unknown-status' ? 'bogus' : 'arrived_at_pickup',
    };
    for (const [type, object] of [
      ['order.assign.driver', { ...address, driver: { name: `Driver ${Math.random().toString(36).slice(2, 6)}` } }],
      ['order.delivery_status.updated', step],
    ] as const) {
      const body = JSON.stringify({ type, object });
      const signature = signBody(body, mistake === 'wrong-secret' ? `${secret}-not` : secret);
      void fetch(`${target}/webhooks/${type}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-webhook-signature': signature },
        body,
      }).then(async (response) => answers.push({ type, status: response.status, body: await response.json() }));
    }
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      if (!verifySignature(raw, request.headers['x-service-signature'] as string | undefined, secret))
        return void response.writeHead(401).end();
      const event = JSON.parse(raw.toString('utf8')) as { type: string; location_id: string; reference_id: string };
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      if (event.type !== 'order.confirmed') return;
      if (target) dispatch(event);
      else waiting.push(event);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    pointAt: (url: string) => {
      target = url;
      for (const event of waiting.splice(0)) dispatch(event);
    },
    /** What the kit answered its webhooks. */
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
