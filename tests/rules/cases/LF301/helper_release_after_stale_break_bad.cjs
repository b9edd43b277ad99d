// A spool lock whose release goes through a helper that is also how a
// stale lock is broken: the holder judged dead by age may still be running,
// and its release then deletes the lock its successor has just taken.
const fs = require("fs");

function release(lockPath) {
  fs.unlinkSync(lockPath);
}

function breakIfOld(lockPath, maxAgeMs) {
  const info = fs.statSync(lockPath);
  if (Date.now() - info.mtimeMs > maxAgeMs) {
    release(lockPath);
    return true;
  }
  return false;
}

function take(lockPath, maxAgeMs) {
  try {
    fs.closeSync(fs.openSync(lockPath, "wx"));
    return true;
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    if (breakIfOld(lockPath, maxAgeMs)) return take(lockPath, maxAgeMs);
    return false;
  }
}

module.exports = { take, release };
