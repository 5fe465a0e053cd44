// What every call to a POS, DSP or event provider relies on: the body goes out as given, the answer
// comes back as status, headers and parsed body, 5xx and network failures are retried a bounded
// number of times and other answers never are. The far end is a plain HTTP server on loopback.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { send } from '../../src/integrations/provider-client.js';
import { startTestService, type TestService } from '../support/service.js';

type Seen = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
type Answer = { status: number; body?: string; type?: string } | 'hang';

let service: TestService;
let server: http.Server;
let base: string;
const seen: Seen[] = [];
let answers: Answer[] = [];

beforeAll(async () => {
  service = await startTestService({ PROVIDER_TIMEOUT_MS: '300' });
  server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const answer = answers.shift() ?? { status: 200, body: '{}' };
      if (answer === 'hang') return;
      res.writeHead(answer.status, { 'content-type': answer.type ?? 'application/json' });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await service?.stop();
});
beforeEach(() => {
  seen.length = 0;
  answers = [];
});

test('a JSON body goes out as JSON, and a JSON answer comes back parsed with its status and headers', async () => {
  answers = [{ status: 201, body: '{"id":"o-1","accepted":true}' }];
  const response = await send(service.services, 'POST', `${base}/orders`, {
    json: { order: { id: 'o-1' } },
    headers: { 'idempotency-key': 'k-1' },
  });
  expect(response).toMatchObject({ status: 201, body: { id: 'o-1', accepted: true }, text: '{"id":"o-1","accepted":true}' });
  expect(response.headers['content-type']).toBe('application/json');
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({ method: 'POST', path: '/orders', body: '{"order":{"id":"o-1"}}' });
  expect(seen[0]!.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'k-1' });
});

test('stored bytes go out unchanged, and an answer that is not JSON is kept as text', async () => {
  answers = [{ status: 200, body: 'accepted, thanks', type: 'text/plain' }];
  const bytes = '{"b":2,  "a":1}';
  const response = await send(service.services, 'POST', `${base}/events`, { body: bytes, headers: { 'content-type': 'application/json' } });
  expect(seen[0]!.body).toBe(bytes);
  expect(response).toMatchObject({ status: 200, body: 'accepted, thanks', text: 'accepted, thanks' });
});

test('a POST with no body is sent and answered, not left waiting for one', async () => {
  answers = [{ status: 204 }];
  const response = await send(service.services, 'POST', `${base}/ping`);
  expect(response).toMatchObject({ status: 204, body: undefined, text: '' });
  expect(seen).toMatchObject([{ method: 'POST', path: '/ping', body: '' }]);
});

test('a 5xx is retried and the first success returned; a 5xx that lasts is returned after the retries', async () => {
  answers = [{ status: 503, body: '{"message":"busy"}' }, { status: 502 }, { status: 200, body: '{"ok":true}' }];
  const recovered = await send(service.services, 'GET', `${base}/locations`, { retries: 2 });
  expect(recovered).toMatchObject({ status: 200, body: { ok: true } });
  expect(seen).toHaveLength(3);

  seen.length = 0;
  answers = [
    { status: 503, body: '{"message":"busy"}' },
    { status: 503, body: '{"message":"still busy"}' },
  ];
  const failed = await send(service.services, 'GET', `${base}/locations`, { retries: 1 });
  expect(failed).toMatchObject({ status: 503, body: { message: 'still busy' } });
  expect(seen).toHaveLength(2);
});

test('a 4xx is answered at once, without a retry', async () => {
  answers = [{ status: 404, body: '{"message":"no such store"}' }];
  const response = await send(service.services, 'GET', `${base}/stores/x`, { retries: 2 });
  expect(response).toMatchObject({ status: 404, body: { message: 'no such store' } });
  expect(seen).toHaveLength(1);
});

test('a provider that never answers times out, is retried, and the call fails', async () => {
  answers = ['hang', 'hang'];
  await expect(send(service.services, 'GET', `${base}/slow`, { retries: 1 })).rejects.toThrow(/Timeout awaiting 'request' for 300ms/);
  expect(seen).toHaveLength(2);
});

test('with no retries asked for (the outbox schedules its own), a 5xx is returned and a timeout fails after one call each', async () => {
  answers = [{ status: 503, body: '{"message":"busy"}' }];
  const busy = await send(service.services, 'POST', `${base}/orders`, { body: '{}', retries: 0 });
  expect(busy).toMatchObject({ status: 503, body: { message: 'busy' } });
  expect(seen).toHaveLength(1);

  seen.length = 0;
  answers = ['hang'];
  await expect(send(service.services, 'POST', `${base}/orders`, { body: '{}', retries: 0 })).rejects.toThrow(
    /Timeout awaiting 'request' for 300ms/,
  );
  expect(seen).toHaveLength(1);
});
