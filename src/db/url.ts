// Which database the service and the Prisma CLI talk to. Kept free of other imports: the Prisma
// CLI's config files load it before anything else exists.
import path from 'node:path';

export type Provider = 'sqlite' | 'postgresql';

export function providerOf(url: string): Provider {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgresql' : 'sqlite';
}

/** DATABASE_URL when set, otherwise the embedded SQLite file in DATA_DIR. */
export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  return `file:${path.join(dataDir, 'service.db')}`;
}

/** The URL the CLI uses for one provider's schema (generate needs none that works). */
export function databaseUrlFor(provider: Provider, env: NodeJS.ProcessEnv = process.env): string {
  const url = databaseUrl(env);
  if (providerOf(url) === provider) return url;
  return provider === 'sqlite' ? 'file:./unused.db' : 'postgresql://127.0.0.1:5432/unused';
}

export function sqliteFile(url: string): string {
  return path.resolve(url.replace(/^file:/, '').replace(/\?.*$/, ''));
}
