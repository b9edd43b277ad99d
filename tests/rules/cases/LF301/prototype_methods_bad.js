// A prototype-style lock class: `this.ownerGone(pid)` is the sibling method,
// and `drop(path)` names the lock `take(path)` creates. A dead owner's lock
// is unlinked by name after reading and probing its pid.
var fs = require('fs');

function PidLock() {}

PidLock.prototype.ownerGone = function (pid) {
  try { process.kill(Number(pid), 0); return false; }
  catch (e) { return e.code === 'ESRCH'; }
};

PidLock.prototype.take = function (path) {
  try {
    fs.writeFileSync(path, String(process.pid), { flag: 'wx' });
  } catch (e) {
    if (e.code !== 'EEXIST') throw e;
    this.drop(path);
    fs.writeFileSync(path, String(process.pid), { flag: 'wx' });
  }
};

PidLock.prototype.drop = function (path) {
  var pid = fs.readFileSync(path, 'utf8');
  if (this.ownerGone(pid)) fs.unlinkSync(path);
};

PidLock.prototype.describe = function (path) {
  return fs.readFileSync(path, 'utf8');
};

module.exports = PidLock;
