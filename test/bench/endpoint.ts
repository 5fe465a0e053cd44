// A partner's webhook endpoint for the order path's bench, in a process of its own on the load
// generator's core: it answers 204 to every call and counts the order.created events it took
// (GET /count). It is the traced bench's OTLP receiver too: it counts the exports posted to
// /v1/traces. Prints its address and serves until it is stopped.
import http from 'node:http';

let created = 0;
let traceExports = 0;
const server = http.createServer((request, response) => {
  if (request.method === 'GET')
    return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ created, traceExports }));
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (request.url === '/v1/traces') traceExports++;
    else if (Buffer.concat(chunks).toString('utf8').includes('"type":"order.created"')) created++;
    response.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`endpoint at http://127.0.0.1:${(server.address() as { port: number }).port}\n`);
});
