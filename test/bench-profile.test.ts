// The bench's profile summary (test/bench/profile.ts), which docs/performance.md quotes: each
// sample counts to the innermost area on its stack, idle time and the profiler's own are left out.
import type { Profiler } from 'node:inspector';
import { summarize } from './bench/profile.js';

/** A profile from stacks written root first, each sampled for the given microseconds. */
function profileOf(stacks: [frames: string[], us: number][]): Profiler.Profile {
  const nodes: Profiler.ProfileNode[] = [{ id: 1, callFrame: frame('(root)'), children: [] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const [frames, us] of stacks) {
    let parent = nodes[0]!;
    for (const name of frames) {
      const found = parent.children!.map((id) => nodes[id - 1]!).find((n) => `${n.callFrame.url || n.callFrame.functionName}` === name);
      const node = found ?? { id: nodes.length + 1, callFrame: frame(name), children: [] };
      if (!found) {
        nodes.push(node);
        parent.children!.push(node.id);
      }
      parent = node;
    }
    samples.push(parent.id);
    timeDeltas.push(us);
  }
  return { nodes, startTime: 0, endTime: timeDeltas.reduce((a, b) => a + b, 0), samples, timeDeltas };
}
/** A name with a slash or a colon is a script's url; anything else a native function or V8's own entry. */
function frame(name: string): Profiler.ProfileNode['callFrame'] {
  const script = /[/:]/.test(name);
  return { functionName: script ? 'f' : name, url: script ? name : '', scriptId: '0', lineNumber: 0, columnNumber: 0 };
}

test('the CPU of a profile is split by the innermost area on each stack, without idle time or the profiler itself', () => {
  const summary = summarize(
    profileOf([
      // better-sqlite3's native call inside our statements, and one whose callers V8 lost
      [['file:///app/src/modules/orders/service.ts', 'file:///app/src/db/statements.ts', 'run'], 300],
      [['all'], 100],
      // Node's HTTP client under got, through the stream frames both sides share
      [['file:///app/node_modules/got/dist/source/core/index.js', 'node:_http_client', 'node:_http_outgoing', 'writev'], 200],
      // a response written by Fastify, through the same shared frames
      [['file:///app/node_modules/fastify/lib/reply.js', 'node:_http_outgoing', 'node:net', 'writev'], 100],
      [['file:///app/src/webhooks/intake.ts', 'Hmac'], 100],
      [['(garbage collector)'], 100],
      [['(program)'], 100],
      [['(idle)'], 1000],
      [['node:inspector', 'dispatch'], 500],
    ]),
  );
  expect(Object.fromEntries(summary)).toEqual({
    'database (our statements, better-sqlite3, pg, the log sync)': 0.4,
    'calls to providers (got, Node HTTP client)': 0.2,
    'HTTP server (Node, Fastify)': 0.1,
    'the rest of our code (src/)': 0.1,
    'garbage collection': 0.1,
    'V8, Node and libraries outside these': 0.1,
  });
  expect(summary[0]![0]).toMatch(/^database/);
});
