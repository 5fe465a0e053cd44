// npm test's pretest: the browser tests need Chromium. Found, nothing to do; missing, it is
// installed from Debian when this user may (root, apt-get); otherwise it says how, and the
// browser tests will fail with that message rather than be skipped.
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';

const paths = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
if (!paths.some((p) => fs.existsSync(p))) {
  const root = process.getuid?.() === 0;
  const apt = fs.existsSync('/usr/bin/apt-get');
  if (root && apt) {
    process.stderr.write("Chromium is missing: installing Debian's chromium for the browser tests\n");
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    process.stderr.write('Chromium is missing: the browser tests need it (apt-get install -y chromium, or CHROMIUM_PATH)\n');
  }
}
