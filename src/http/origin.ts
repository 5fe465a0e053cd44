// Where a browser's request came from: the one check that keeps a cookie from working for
// another site's page (CSRF, cross-site WebSocket hijacking).
import type { IncomingHttpHeaders } from 'node:http';
import type { Services } from '../services.js';

/**
 * Whether a browser sent this request from the service's own pages: its Origin is ours (the
 * public URL's, or the Host it was sent to), or, with no Origin, the browser says same-origin.
 * A cookie alone proves nothing: another site's page can make the browser send it.
 */
export function fromOwnPages(services: Pick<Services, 'publicUrl'>, headers: IncomingHttpHeaders): boolean {
  const origin = headers.origin;
  if (origin)
    return origin === new URL(services.publicUrl).origin || origin === `http://${headers.host}` || origin === `https://${headers.host}`;
  return headers['sec-fetch-site'] === 'same-origin';
}
