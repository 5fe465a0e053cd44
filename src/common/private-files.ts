// Files that hold customers' data or secrets (the SQLite database and its log, backups, the keys,
// the sandbox's secrets, the lock beside the database) are the service user's alone: 0600, in a
// folder of 0700. A backup read as another user gave customers' data and a working partner token.
import fs from 'node:fs';
import path from 'node:path';

/** The folder, made 0700 if new; an existing one (DATA_DIR from an earlier version, or made by
 * hand) is tightened to 0700 too. Only for folders that are the service's own. */
export function privateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  if ((fs.statSync(folder).mode & 0o777) !== 0o700) fs.chmodSync(folder, 0o700);
}

/** A new file for private content: created 0600 (failing if it exists), in its folder, which is
 * made 0700 when it does not exist (an existing one, such as the one a backup is written into, is
 * the operator's to keep as it is). */
export function newPrivateFile(file: string): void {
  const folder = path.dirname(file);
  if (!fs.existsSync(folder)) fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'wx', 0o600));
}
