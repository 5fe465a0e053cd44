// Every cross-reference resolves: each relative link of the README and the guides names a file
// that exists, each #anchor a heading of its file as GitHub renders it (its slug), and each
// section named in prose ("<guide>.md § <heading>", or the heading quoted after the file's name),
// in the guides or in the comments of the code, a heading of that document. Links to other sites
// are not followed (the tests run without a network).
import fs from 'node:fs';
import path from 'node:path';

const DOCUMENTS = ['README.md', ...fs.readdirSync('docs').map((name) => path.join('docs', name))].filter((file) => file.endsWith('.md'));

/** A heading's anchor as GitHub makes it (github-slugger): the rendered text in lower case, every
 * character but letters, marks, digits, `_`, `-` and spaces dropped, spaces made hyphens. */
function slug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** A document's text outside its fenced code blocks, line by line (a fence's lines blanked, so
 * that line numbers stay true). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** The anchors of a document's headings, a repeated one numbered as GitHub numbers it (-1, -2, …). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

/** The headings of a document, as written (for prose references). */
function headingsOf(text: string): string[] {
  return prose(text)
    .map((line) => /^#{1,6}\s+(.*?)\s*$/.exec(line)?.[1])
    .filter((heading): heading is string => !!heading)
    .map((heading) => heading.replace(/`/g, ''));
}

type Reference = { from: string; line: number; target: string };

/** Every link and image of a document's prose, code spans aside. */
function linksOf(file: string, text: string): Reference[] {
  return prose(text).flatMap((line, index) =>
    [...line.replace(/`[^`]*`/g, '').matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
      from: file,
      line: index + 1,
      target: match[1]!,
    })),
  );
}

/** What is wrong with a link, or null. */
function brokenLink(reference: Reference): string | null {
  const { from, target } = reference;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null;
  const [file, anchor] = target.split('#', 2) as [string, string | undefined];
  const resolved = file ? path.normalize(path.join(path.dirname(from), decodeURIComponent(file))) : from;
  if (!fs.existsSync(resolved)) return `${target}: no file ${resolved}`;
  if (anchor === undefined) return null;
  if (!resolved.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  const anchors = anchorsOf(fs.readFileSync(resolved, 'utf8'));
  return anchors.has(decodeURIComponent(anchor).toLowerCase()) ? null : `${target}: no heading of ${resolved} has the anchor #${anchor}`;
}

test.each([
  ['Run it', 'run-it'],
  ['What `npm start` serves', 'what-npm-start-serves'],
  ['Hearing back: events, webhook endpoints, idempotency keys', 'hearing-back-events-webhook-endpoints-idempotency-keys'],
  ['6. Certify your server before any merchant', '6-certify-your-server-before-any-merchant'],
  ['`location.order.accept`: the POS took the order', 'locationorderaccept-the-pos-took-the-order'],
  ["Customers' data", 'customers-data'],
  ['For delivery platforms (DSPs): what the service sends you', 'for-delivery-platforms-dsps-what-the-service-sends-you'],
  ['Orders: `POST /v1/orders`', 'orders-post-v1orders'],
  ['The [sandbox](#the-sandbox) peers', 'the-sandbox-peers'],
  ['Größe und Menü', 'größe-und-menü'],
  ['snake_case names', 'snake_case-names'],
])('the anchor of the heading %j is #%s', (heading, anchor) => {
  expect(slug(heading)).toBe(anchor);
});

test('a heading written twice gets the anchors GitHub gives it: the second one numbered', () => {
  expect([...anchorsOf('# A\n\n## Orders\n\n```sh\n# not a heading\n```\n\n### Orders\n')]).toEqual(['a', 'orders', 'orders-1']);
});

test('every relative link and #anchor of the README and the guides resolves', () => {
  const broken = DOCUMENTS.flatMap((file) =>
    linksOf(file, fs.readFileSync(file, 'utf8')).flatMap((reference) => {
      const problem = brokenLink(reference);
      return problem ? [`${reference.from}:${reference.line}: ${problem}`] : [];
    }),
  );
  expect(broken).toEqual([]);
  // The checker reads links at all: the README links each guide.
  expect(linksOf('README.md', fs.readFileSync('README.md', 'utf8')).length).toBeGreaterThan(10);
});

/** The code and the tests, whose comments cite the guides by section (generated code aside). */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sources(at);
    return /\.(ts|mjs)$/.test(entry.name) ? [at] : [];
  });
}

/** The document a prose reference names: the README, or a guide (named with or without docs/). */
const documentNamed = (name: string) => (name.startsWith('README') ? 'README.md' : path.join('docs', path.basename(name)));

test('every section named in prose, in the guides and in the comments of the code, is a heading of its document', () => {
  const broken: string[] = [];
  for (const file of [...DOCUMENTS, ...sources('src'), ...sources('test'), 'jest.config.ts']) {
    const text = fs.readFileSync(file, 'utf8');
    (file.endsWith('.md') ? prose(text) : text.split('\n')).forEach((line, index) => {
      // "docs/reference.md § Money …" (the heading, then the sentence goes on) and
      // 'docs/operations.md, "Backups"' (the heading, or its beginning, quoted).
      for (const match of line.matchAll(/((?:docs\/)?[\w-]+\.md|README(?:\.md)?)(\s*§\s*|,\s*")([^".,;:)\]]+)/g)) {
        const target = documentNamed(match[1]!);
        const headings = fs.existsSync(target) ? headingsOf(fs.readFileSync(target, 'utf8')) : [];
        const named = match[3]!.replace(/`/g, '').trim();
        // A name cut by the end of a line is the beginning of a heading.
        const cut = match.index! + match[0]!.length >= line.trimEnd().length;
        const found = match[2]!.includes('§')
          ? headings.some((heading) => named.startsWith(heading) || (cut && heading.startsWith(named)))
          : headings.some((heading) => heading.startsWith(named));
        if (!found) broken.push(`${file}:${index + 1}: ${match[0]}: no such heading in ${target}`);
      }
    });
  }
  expect(broken).toEqual([]);
});

test('every file or folder of the repository the README and the guides name (`src/…`, `test/…`) exists', () => {
  const missing: string[] = [];
  for (const file of DOCUMENTS) {
    prose(fs.readFileSync(file, 'utf8')).forEach((line, index) => {
      for (const match of line.matchAll(/`((?:src|test|docs|prisma|schema|\.ci)\/[^`*<>{}\s]+)`/g)) {
        const named = match[1]!.replace(/\/$/, '').split(':')[0]!;
        if (!fs.existsSync(named)) missing.push(`${file}:${index + 1}: ${named}`);
      }
    });
  }
  expect(missing).toEqual([]);
});
