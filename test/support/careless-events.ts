// An event provider that gets one rule wrong, for the conformance kit's tests: it checks the
// signature and answers 200 with an object (which the service takes), but assigns a new driver
// for every order.confirmed it gets, a repeat included. Its webhooks go to wherever it is pointed
// (those of an order.confirmed that came before, once it is).
import http from 'node:http';
import { signBody, verifySignature } from '../../src/common/signatures.js';

export async function startCarelessEvents(secret: string) {
  let target: string | undefined;
  const waiting: { location_id: string; reference_id: string }[] = [];
  const dispatch = (event: { location_id: string; reference_id: string }) => {
    const address = { location_id: event.location_id, order_id: event.reference_id };
    for (const [type, object] of [
      ['order.assign.driver', { ...address, driver: { name: `Driver ${Math.random().toString(36).slice(2, 6)}` } }],
      ['order.delivery_status.updated', { ...address, delivery_status: 'arrived_at_pickup' }],
    ] as const) {
      const body = JSON.stringify({ type, object });
      void fetch(`${target}/webhooks/${type}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-webhook-signature': signBody(body, secret) },
        body,
      });
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
