// Debian's Chromium for the browser tests: CHROMIUM_PATH, or the usual places. `npm test`'s
// pretest step (test/support/ensure-chromium.mjs) installs it from Debian when it is missing.
import fs from 'node:fs';

export function chromiumPath(): string {
  const found = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (p): p is string => !!p && fs.existsSync(p),
  );
  if (!found) throw new Error("no Chromium: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH");
  return found;
}
