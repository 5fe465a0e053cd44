// The layout docs/architecture.md promises: each module of src/modules/, each other top-level
// folder of src/ and each file at its root is one node, and an import only ever points down: no
// cycle between them, type imports included, and no node importing one of a layer above its own
// (the kernel, src/changes, between the outbox and the modules). And src/'s root holds at most
// five files.
import fs from 'node:fs';
import path from 'node:path';

const SRC = path.resolve('src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(at);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [at] : [];
  });
}

/** A file's node: its module (`modules/<area>`), else its top-level folder, or its own name at
 * src/'s root. Modules are nodes of their own: two modules importing each other are a cycle
 * even though they share a folder. */
const nodeOf = (file: string) => {
  const [first, second, ...rest] = path.relative(SRC, file).split(path.sep);
  if (first === 'modules' && rest.length) return `modules/${second}`;
  return second !== undefined ? first! : first!.replace(/\.ts$/, '');
};

/** Every import between nodes, with the files that make it. */
function importGraph(): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:(?:import|export)[^'"]*?from\s+|import\s+|import\()'(\.[^']+)'/g)) {
      const target = path.resolve(path.dirname(file), specifier!.replace(/\.js$/, '.ts'));
      if (!target.startsWith(SRC + path.sep)) continue;
      const [from, to] = [nodeOf(file), nodeOf(target)];
      if (from === to || to === 'generated') continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges.set(to, [...(edges.get(to) ?? []), `${path.relative(SRC, file)} imports ${specifier}`]));
    }
  }
  return graph;
}

/** A cycle through the graph, as the imports that make it, or null. */
function findCycle(graph: Map<string, Map<string, string[]>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'open');
    trail.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...trail.slice(trail.indexOf(next)), next];
        return loop.slice(1).map((to, i) => graph.get(loop[i]!)!.get(to)![0]!);
      }
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    trail.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

test('no two modules or folders of src/ import each other, directly or round a circle', () => {
  expect(findCycle(importGraph())).toBeNull();
});

test('the check finds a cycle when there is one', () => {
  const graph = new Map([
    ['a', new Map([['b', ['a.ts imports ./b']]])],
    ['b', new Map([['c', ['b.ts imports ./c']]])],
    ['c', new Map([['a', ['c.ts imports ./a']]])],
  ]);
  expect(findCycle(graph)).toEqual(['a.ts imports ./b', 'b.ts imports ./c', 'c.ts imports ./a']);
});

test('two modules importing each other are a cycle, though they share src/modules', () => {
  expect(nodeOf(path.join(SRC, 'modules', 'orders', 'service.ts'))).toBe('modules/orders');
  expect(nodeOf(path.join(SRC, 'modules', 'privacy', 'service.ts'))).toBe('modules/privacy');
  expect(nodeOf(path.join(SRC, 'delivery', 'worker.ts'))).toBe('delivery');
  expect(nodeOf(path.join(SRC, 'services.ts'))).toBe('services');
  const graph = new Map([
    ['modules/orders', new Map([['modules/privacy', ['modules/orders/service.ts imports ../privacy/service.js']]])],
    ['modules/privacy', new Map([['modules/orders', ['modules/privacy/service.ts imports ../orders/states.js']]])],
  ]);
  expect(findCycle(graph)).toHaveLength(2);
});

/** The house from the bottom up (docs/architecture.md, "The layers"): a node imports nodes of its
 * own layer or below only (within a layer, the cycle check above keeps the order). */
const LAYERS: readonly (readonly string[])[] = [
  ['common', 'telemetry'],
  ['db', 'config', 'services', 'http'],
  ['integrations', 'graphql'],
  ['delivery', 'webhooks'],
  ['changes'],
  ['modules/*'],
  ['dashboard', 'certify', 'sandbox', 'server'],
  ['app'],
  ['cli', 'main'],
];
const layerOf = (node: string) => LAYERS.findIndex((layer) => layer.includes(node.startsWith('modules/') ? 'modules/*' : node));

/** Every import that points up a layer (or from or to a node no layer names). */
const importsUp = (graph: Map<string, Map<string, string[]>>): string[] =>
  [...graph].flatMap(([from, edges]) =>
    [...edges].filter(([to]) => layerOf(from) < 0 || layerOf(to) < 0 || layerOf(to) > layerOf(from)).map(([, files]) => files[0]!),
  );

test('every import points down the layers: the outbox below the kernel, the kernel below the modules', () => {
  expect(importsUp(importGraph())).toEqual([]);
});

test('the layer check finds an import that points up', () => {
  expect(layerOf('delivery')).toBeLessThan(layerOf('changes'));
  expect(layerOf('changes')).toBeLessThan(layerOf('modules/orders'));
  const graph = new Map([
    ['delivery', new Map([['changes', ['delivery/worker.ts imports ../changes/record.js']]])],
    ['changes', new Map([['modules/events', ['changes/record.ts imports ../modules/events/service.js']]])],
    ['modules/orders', new Map([['changes', ['modules/orders/service.ts imports ../../changes/record.js']]])],
  ]);
  expect(importsUp(graph)).toEqual([
    'delivery/worker.ts imports ../changes/record.js',
    'changes/record.ts imports ../modules/events/service.js',
  ]);
});

test("no module but the partner events module imports it: the change record is the kernel's", () => {
  const importers = [...importGraph()].filter(([from, edges]) => from.startsWith('modules/') && edges.has('modules/events'));
  expect(importers.map(([from]) => from)).toEqual([]);
});

test("src/'s root holds at most five files", () => {
  const files = fs.readdirSync(SRC, { withFileTypes: true }).filter((entry) => entry.isFile());
  expect(files.length).toBeLessThanOrEqual(5);
});
