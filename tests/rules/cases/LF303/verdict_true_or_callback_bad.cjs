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

// The lock's acquire trusts isHeld's verdict to take the lock over.
function acquire(lockFile, done) {
  try {
    fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
    return done(null, true);
  } catch (err) {
    if (err.code !== "EEXIST") return done(err);
  }
  isHeld(Number(fs.readFileSync(lockFile, "utf8")), (err, held) => {
    if (err || held) return done(err, false);
    fs.writeFileSync(lockFile, String(process.pid));
    done(null, true);
  });
}

module.exports = { holderGone, isHeld, acquire };
