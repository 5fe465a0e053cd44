// A partner's webhook endpoint: a real HTTP server on 127.0.0.1 that keeps every call it gets
// (headers and the exact body) and answers as the test says: 200 by default, or any status, a
// redirect, a huge body, or never.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/** The tests' own certificate for 127.0.0.1 and localhost (a century long): a process that
 * trusts it (NODE_EXTRA_CA_CERTS=TEST_CA) calls a TLS receiver as it would a partner's https. */
export const TEST_CA = path.resolve('test/support/tls/cert.pem');

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
/** How to answer a call: a status, or a function of the call that writes the answer itself
 * (it may never end it). */
export type Answer = number | ((call: Received, response: http.ServerResponse) => void);

export type Receiver = {
  url: string;
  received: Received[];
  /** Calls whose answer has not been sent yet (a hanging endpoint's). */
  open: () => number;
  /** How it answers from now on. */
  answer: (answer: Answer) => void;
  close: () => Promise<void>;
};

export async function startReceiver(answer: Answer = 200, options: { tls?: boolean } = {}): Promise<Receiver> {
  let current = answer;
  const received: Received[] = [];
  const pending = new Set<http.ServerResponse>();
  const handle = (request: http.IncomingMessage, response: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const call = { path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(call);
      pending.add(response);
      response.on('close', () => pending.delete(response));
      if (typeof current === 'number') response.writeHead(current, { 'content-type': 'application/json' }).end('{}');
      else current(call, response);
    });
  };
  const server = options.tls
    ? https.createServer({ key: fs.readFileSync('test/support/tls/key.pem'), cert: fs.readFileSync(TEST_CA) }, handle)
    : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    received,
    open: () => pending.size,
    answer: (next) => {
      current = next;
    },
    close: async () => {
      for (const response of pending) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
