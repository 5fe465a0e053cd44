// Builds the merchant dashboard into static assets (dist/dashboard/), which the service serves at
// /dashboard: the page, its one script (TypeScript bundled by esbuild, graphql-ws included, no
// CDN), its stylesheet and the service's icon (/favicon.ico). `npm run build`; npm install, start and test run it first.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { DASHBOARD_DIST } from './dist.js';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function buildDashboard(outdir = DASHBOARD_DIST): Promise<void> {
  fs.mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [path.join(here, 'app.ts')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    sourcemap: false,
    outfile: path.join(outdir, 'app.js'),
    logLevel: 'warning',
  });
  fs.copyFileSync(path.join(here, 'app.css'), path.join(outdir, 'app.css'));
  for (const file of ['index.html', 'favicon.ico']) fs.copyFileSync(path.join(here, file), path.join(outdir, file));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await buildDashboard();
