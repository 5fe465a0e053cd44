// The ceilings and the peer, in a process of their own (started by run.ts): node:http answering a
// fixed JSON body, node:http + graphql-jit and a plain Yoga + Pothos server over the in-memory
// data, and Fastify answering the fixed body. Pinned as run.ts is (cores.ts). Prints their
// addresses as one JSON line and serves until it is stopped.
//
// Not in run.ts's process: measured after them in the same process, our service ran a full
// collection every 2-3 s at half rate (p99 15-19 ms); measured apart, 0 to 2 in the same 18 s
// (p99 3-4 ms). Its heap after a full GC is about 56 MB either way; why their run made the
// collections come sooner was not pinned down.
import http from 'node:http';
import Fastify from 'fastify';
import { createYoga } from 'graphql-yoga';
import { parse, execute } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { READ_QUERY, memorySchema } from './shape.js';
import { pinToServerCore } from './cores.js';

pinToServerCore();

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

const schema = memorySchema();
const fixed = JSON.stringify(await execute({ schema, document: parse(READ_QUERY), variableValues: { orgId: 'org' } }));
const plain = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(fixed));
const compiled = compileQuery(schema, parse(READ_QUERY));
if (!isCompiledQuery(compiled)) throw new Error('graphql-jit could not compile the query');
const jit = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const { variables } = JSON.parse(body) as { variables: Record<string, unknown> };
    res.writeHead(200, { 'content-type': 'application/json' }).end(compiled.stringify(compiled.query(undefined, {}, variables) as never));
  });
});
const peer = http.createServer(createYoga({ schema, logging: false }));
const fastify = Fastify();
fastify.get('/', async () => JSON.parse(fixed) as unknown);
await fastify.listen({ port: 0, host: '127.0.0.1' });
const urls = {
  plain: await listen(plain),
  jit: await listen(jit),
  peer: await listen(peer),
  fastify: `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`,
};
process.stdout.write(`ceilings ${JSON.stringify(urls)}\n`);
