// The service's log (pino, JSON lines), apart from the server so that a command that only opens
// the database does not load the server's modules to get it.
import pino, { type Logger } from 'pino';
import type { Config } from '../config.js';

export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'partner-ordering' } });
}
