// `npm run sandbox:event-provider`: the sandbox event provider on its own (SANDBOX_EVENTS_PORT,
// default 4200), with the secret of DATA_DIR/sandbox.json, a delivery step every
// SANDBOX_DELIVERY_STEP_MS (default 3000); `POST /v1/_sandbox/service {url, provider}` tells it
// where to report (a service, or the conformance kit's URL).
import path from 'node:path';
import { sandboxSecrets } from '../register.js';
import { startSandboxEventProvider } from './server.js';

const secrets = sandboxSecrets(path.resolve(process.env.DATA_DIR ?? './data'));
const events = await startSandboxEventProvider({
  secret: secrets.webhookSecret,
  port: Number(process.env.SANDBOX_EVENTS_PORT ?? 4200),
  stepMs: Number(process.env.SANDBOX_DELIVERY_STEP_MS ?? 3000),
});
process.stdout.write(`sandbox event provider at ${events.url}\n`);
const stop = () => void events.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
