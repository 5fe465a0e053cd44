// The command line's entry: `npm start` and `npm run cli -- <command>` (./cli/commands.ts).
import { USAGE, UsageError, runCli } from './cli/commands.js';

runCli(process.argv.slice(2)).catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
  else process.stderr.write(`${message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
