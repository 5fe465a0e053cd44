// Where a profiled scenario's CPU went, by area of the service, from the V8 CPU profile that
// BENCH_PROFILE writes: the figures docs/performance.md quotes for each missed target, so that
// anyone can make them again. Each sample counts to the innermost frame of its stack that belongs
// to an area: a native better-sqlite3 call inside our statements is the database's, Node's HTTP
// client inside got is the provider call's.
import type { Profiler } from 'node:inspector';

const AREAS: [area: string, frame: RegExp][] = [
  // better-sqlite3's statements are native `run` and `all`; V8 often loses the JavaScript frames
  // above a native call made from a promise's continuation, so they are known by name too.
  ['database (our statements, better-sqlite3, pg, the log sync)', /src\/db\/|better-sqlite3|node_modules\/pg|^fdatasync$|^run$|^all$/],
  ['calls to providers (got, Node HTTP client)', /node_modules\/got\/|p-retry|src\/integrations\/|node:_http_client|node:_http_agent/],
  ['GraphQL (Yoga, envelop, graphql-jit, Pothos, DataLoader, our src/graphql)', /graphql|@envelop|@pothos|dataloader/],
  ['HTTP server (Node, Fastify)', /node:_http_server|node:_http_incoming|fastify|find-my-way|avvio/],
  ['the rest of our code (src/)', /\/src\//],
  ['garbage collection', /^\(garbage collector\)$/],
];
/** Frames both sides of HTTP pass through: a sample in them counts to what called them. */
const SHARED = /node:_http_outgoing|node:_http_common|node:net|node:internal\/streams|node:stream/;
const OTHER = 'V8, Node and libraries outside these';
const PROFILER = 'the profiler';

/** Each area's share of the samples that were not idle, largest first. */
export type ProfileSummary = [area: string, share: number][];

export function summarize(profile: Profiler.Profile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const areaOf = new Map<number, string>();
  const area = (id: number): string => {
    let known = areaOf.get(id);
    if (known) return known;
    const { functionName, url } = byId.get(id)!.callFrame;
    // V8's own entries ((garbage collector), (program)) and native functions have no url.
    const frame = url || functionName;
    const parent = parentOf.get(id);
    const own = frame === 'node:inspector' ? PROFILER : SHARED.test(frame) ? undefined : AREAS.find(([, re]) => re.test(frame))?.[0];
    known = own ?? (parent === undefined ? OTHER : area(parent));
    areaOf.set(id, known);
    return known;
  };
  const time = new Map<string, number>();
  let busy = 0;
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i]!;
    const dt = profile.timeDeltas?.[i] ?? 0;
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    const a = area(id);
    // The profiler's own work when it stops is not the scenario's.
    if (a === PROFILER) continue;
    busy += dt;
    time.set(a, (time.get(a) ?? 0) + dt);
  }
  return [...time].map(([a, t]): [string, number] => [a, busy ? t / busy : 0]).sort((x, y) => y[1] - x[1]);
}

const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

/** The areas of 1% or more, as one line. */
export const summaryLine = (s: ProfileSummary) =>
  s
    .filter(([, share]) => share >= 0.01)
    .map(([a, share]) => `${a} ${percent(share)}`)
    .join(', ');
