// Probes whose verdict decides a lock through the module's own functions.
const fs = require("fs");
const path = require("path");

const LOCK_FILE = path.join(__dirname, "sync.lock");

// 1. The caller takes and breaks the lock through its helpers.
class SyncLock {
  async acquire() {
    for (let i = 0; i < 50; i++) {
      if (this._tryAcquire()) return true;
      if (this._isStale()) {
        this.release();
        continue;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return false;
  }

  release() {
    try {
      fs.unlinkSync(LOCK_FILE);
    } catch {}
  }

  _tryAcquire() {
    try {
      fs.writeFileSync(LOCK_FILE, JSON.stringify({ pid: process.pid }), { flag: "wx" });
      return true;
    } catch (err) {
      if (err.code === "EEXIST") return false;
      throw err;
    }
  }

  _isStale() {
    try {
      const data = JSON.parse(fs.readFileSync(LOCK_FILE, "utf8"));
      try {
        process.kill(data.pid, 0);
        return false;
      } catch {
        return true;
      }
    } catch {
      return true;
    }
  }
}

module.exports = { SyncLock };
