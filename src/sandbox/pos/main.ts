// `npm run sandbox:pos`: the sandbox POS on its own (SANDBOX_POS_PORT, default 4100). Its secrets
// are those of DATA_DIR/sandbox.json, the same the service registers when it runs the sandbox.
// With SANDBOX_SERVICE_URL its controls (a catalog changed, an order placed) call that service.
import path from 'node:path';
import { sandboxSecrets } from '../register.js';
import { startSandboxPos } from './server.js';

const secrets = sandboxSecrets(path.resolve(process.env.DATA_DIR ?? './data'));
const serviceUrl = process.env.SANDBOX_SERVICE_URL;
const pos = await startSandboxPos({
  ...secrets,
  port: Number(process.env.SANDBOX_POS_PORT ?? 4100),
  ...(serviceUrl ? { service: { url: serviceUrl, source: 'sandbox-pos' } } : {}),
});
process.stdout.write(
  `sandbox POS at ${pos.url}\nclient_id: ${secrets.clientId}\nclient_secret: ${secrets.clientSecret}\nwebhook secret: ${secrets.webhookSecret}\n`,
);
const stop = () => void pos.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
