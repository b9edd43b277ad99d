// The same lock file as forced_create_takeover_bad.js, but no caller forces
// the open: a lock that is there makes init() fail, and only the holder
// (which created it 'wx') removes it. Nothing breaks another holder's lock,
// so the release by name deletes only its own: no finding.
import fs from "fs";
import path from "path";

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

  init() {
    return this._open({ force: false });
  }

  dispose() {
    try {
      fs.unlinkSync(this.path);
    } catch (e) {
      // already gone
    }
  }
}
