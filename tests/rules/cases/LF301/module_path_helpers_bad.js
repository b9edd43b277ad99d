// The lock is a module-level path that each helper names on its own:
// _isStale() returns a verdict on it (its owner's pid probed), release()
// removes it. acquire() breaks the lock through the two helpers in turn (a
// takeover reported at the call of release()); withLock()'s release is not
// judged, so it is not reported again at the call: release() itself
// removes the lock of a module that breaks it.
const fs = require("fs");
const path = require("path");
const os = require("os");

const LOCK_FILE = path.join(os.homedir(), ".config", "tool", "git.lock");

class GitLock {
  async acquire() {
    for (let i = 0; i < 100; i++) {
      if (this._tryAcquire()) return true;
      if (this._isStale()) {
        this.release();
        continue;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error("busy");
  }

  release() {
    try {
      fs.unlinkSync(LOCK_FILE);
    } catch {}
  }

  async withLock(fn) {
    await this.acquire();
    try {
      return await fn();
    } finally {
      this.release();
    }
  }

  _tryAcquire() {
    try {
      fs.writeFileSync(LOCK_FILE, JSON.stringify({ pid: process.pid }), { flag: "wx" });
      return true;
    } catch (error) {
      if (error.code === "EEXIST") return false;
      throw error;
    }
  }

  _isStale() {
    try {
      const data = JSON.parse(fs.readFileSync(LOCK_FILE, "utf8"));
      try {
        process.kill(data.pid, 0);
        return false;
      } catch (e) {
        return e.code !== "EPERM";
      }
    } catch {
      return true;
    }
  }
}

module.exports = { GitLock };
