// Where `npm run build` (./build.ts) puts the dashboard's assets, and the service reads them.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DASHBOARD_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/dashboard');
