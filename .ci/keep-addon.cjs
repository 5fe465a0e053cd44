// Keeps better-sqlite3's compiled addon in npm's cache, where its install script (prebuild-install)
// looks for a prebuilt binary before it would download one from GitHub (out of reach here) and
// then compile from source: the next `npm rebuild better-sqlite3` on this machine, or any machine
// whose npm cache CI keeps, unpacks it in a second instead of compiling for 75 s. The cache entry
// is named by the download's address, which names the package's version, Node's ABI, the
// platform and the architecture: another Node or another version of the package misses it and
// compiles. Prints what it did.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

// prebuild-install runs under npm, which names its cache in npm_config_cache: the same folder here.
process.env.npm_config_cache ??= execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
const dir = path.resolve(__dirname, '../node_modules/better-sqlite3');
const addon = path.join(dir, 'build/Release/better_sqlite3.node');
process.chdir(dir);
const pkg = require(path.join(dir, 'package.json'));
const rc = require('prebuild-install/rc')(pkg);
const util = require('prebuild-install/util');
const cached = util.cachedPrebuild(util.getDownloadUrl({ ...rc, pkg }));
if (fs.existsSync(cached)) console.log(`better-sqlite3's addon is in npm's cache: ${cached}`);
else if (!fs.existsSync(addon)) throw new Error(`no compiled addon at ${addon}`);
else {
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  // As a prebuild's tarball is laid out: the addon under build/Release, unpacked into the package.
  const partial = `${cached}.${process.pid}.tmp`;
  execFileSync('tar', ['-czf', partial, '-C', dir, 'build/Release/better_sqlite3.node']);
  fs.renameSync(partial, cached);
  console.log(`better-sqlite3's compiled addon kept in npm's cache: ${cached}`);
}
