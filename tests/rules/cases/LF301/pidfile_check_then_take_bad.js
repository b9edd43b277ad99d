// The same plain pid file used as a lock: acquire() looks at it (its
// recorded age) and refuses to run while it is fresh, then writes its own
// pid; release() reads the pid, compares it with its own and removes the
// file by name in a separate step. A runner that took the file over as
// stale in between has its lock deleted.
const fs = require("fs");

const LOCK_FILE = "/var/tmp/runner.lock";
const STALE_MS = 30 * 60 * 1000;

function acquire() {
  if (fs.existsSync(LOCK_FILE)) {
    const rec = JSON.parse(fs.readFileSync(LOCK_FILE, "utf8"));
    if (Date.now() - rec.createdAt < STALE_MS) return false;
  }
  fs.writeFileSync(LOCK_FILE, JSON.stringify({ pid: process.pid, createdAt: Date.now() }));
  return true;
}

function release() {
  if (fs.existsSync(LOCK_FILE)) {
    const rec = JSON.parse(fs.readFileSync(LOCK_FILE, "utf8"));
    if (rec.pid === process.pid) {
      fs.unlinkSync(LOCK_FILE);
    }
  }
}

module.exports = { acquire, release };
