// The lock's change time is named first and its age taken later through that
// name: still an age test of a lock that a paused holder loses.
var fs = require("fs");

exports.field = process.platform === "win32" ? "mtime" : "ctime";

exports.grab = function (lockPath, staleMs) {
  try {
    fs.closeSync(fs.openSync(lockPath, "wx"));
    return true;
  } catch (er) {
    if (er.code !== "EEXIST") throw er;
    var info = fs.statSync(lockPath);
    var changed = info[exports.field].getTime();
    if (changed % 1000 === 0) staleMs = 1000 * Math.ceil(staleMs / 1000);
    var age = Date.now() - changed;
    if (age > staleMs) {
      fs.unlinkSync(lockPath);
      return exports.grab(lockPath, staleMs);
    }
    return false;
  }
};
