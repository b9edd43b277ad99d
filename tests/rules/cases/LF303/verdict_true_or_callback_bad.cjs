// A probe whose catch answers "stale" (true) or hands `false` ("not held")
// to a callback for every error: EPERM, a live process of another user,
// reads as dead.
const fs = require("fs");

function holderGone(lockFile) {
  const rec = JSON.parse(fs.readFileSync(lockFile, "utf8"));
  if (rec.host !== require("os").hostname()) return false;
  try {
    process.kill(rec.pid, 0);
  } catch {
    return true;
  }
  return Date.now() - rec.startedAt > 3600_000;
}

function isHeld(pid, done) {
  try {
    process.kill(pid, 0);
    done(null, true);
  } catch (err) {
    done(null, false);
  }
}

module.exports = { holderGone, isHeld };
