// A daemon manager's signal helper: called with no signal it probes
// (`signal || 0`), and every error, EPERM included, reads as "not running".
// start() refuses only when the probe answers, and status() clears the pid
// file of a daemon it finds "not running", so a daemon running as another
// user looks dead, loses its pid file, and a second one starts. (stop()
// passes SIGTERM: that call signals, it does not probe.)
var fs = require("fs");

function Daemon(pidfile) {
  this.pidfile = pidfile;
}

Daemon.prototype._getpid = function () {
  try {
    return parseInt(fs.readFileSync(this.pidfile, "utf8"), 10);
  } catch (e) {
    return 0;
  }
};

Daemon.prototype._sendSignal = function (pid, signal) {
  if (!pid) return 0;
  try {
    process.kill(pid, signal || 0);
    return pid;
  } catch (err) {}
  return 0;
};

Daemon.prototype.start = function (spawn) {
  if (this._sendSignal(this._getpid())) throw new Error("already running");
  var child = spawn();
  fs.writeFileSync(this.pidfile, child.pid + "\n");
  return child.pid;
};

Daemon.prototype.status = function () {
  var pid = this._sendSignal(this._getpid());
  if (!pid) {
    fs.unlinkSync(this.pidfile); // not running: clear the stale pid file
    return 0;
  }
  return pid;
};

Daemon.prototype.stop = function () {
  var pid = this._sendSignal(this._getpid(), "SIGTERM");
  return pid;
};

module.exports = Daemon;
