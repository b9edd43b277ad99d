// A directory's lock file, created 'wx' by _open(), whose forced form
// (`{ force: true }`: flag 'w') overwrites whatever lock is there. init()
// forces it once _isStale() finds the lock's mtime two days old, and
// dispose() unlinks the lock by name. The forced open is a takeover by
// overwrite, so the age (LF302) and the release by name (LF301: the old
// holder removes its successor's lock) are both reported.
import fs from "fs";
import path from "path";

const STALE_AGE = 2 * 24 * 60 * 60 * 1000;

export default class DirLock {
  constructor(dir) {
    this.path = path.join(dir, ".dir-lock");
  }

  _open({ force = false } = {}) {
    try {
      fs.writeFileSync(this.path, "", { flag: force ? "w" : "wx" });
      return true;
    } catch (e) {
      return false;
    }
  }

  _isStale() {
    try {
      const { mtimeMs } = fs.statSync(this.path);
      return Date.now() - mtimeMs > STALE_AGE;
    } catch (e) {
      return false;
    }
  }

  init() {
    if (this._open()) return true;
    if (this._isStale()) return this._open({ force: true });
    return false;
  }

  dispose() {
    try {
      fs.unlinkSync(this.path);
    } catch (e) {
      // already gone
    }
  }
}
