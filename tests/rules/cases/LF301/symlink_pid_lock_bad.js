// A single-instance guard built on a symlink: `current` points at this run's
// directory, named by pid. When the link exists, the owner's liveness is read
// from /proc; a dead owner's link is unlinked and replaced by name. Two
// starters that both find the owner dead race: the slower one unlinks the
// link the faster one has just made, and both run.
var fs = require("fs");
var path = require("path");

function ownerCommand(pid) {
  return fs.readFileSync(path.join("/proc", String(pid), "cmdline"), "utf8");
}

exports.claim = function (root) {
  var mine = path.join(root, String(process.pid));
  var link = path.join(root, "current");
  fs.mkdirSync(mine, { recursive: true });
  try {
    fs.symlinkSync(mine, link);
    return true;
  } catch (e) {
    var owner = Number(path.basename(fs.readlinkSync(link)));
    var dead = false;
    try {
      ownerCommand(owner);
    } catch (gone) {
      dead = true;
    }
    if (!dead) return false;
    fs.unlinkSync(link);
    try {
      fs.rmdirSync(link); // a symlink is no directory: this removes nothing
    } catch (ignored) {}
    fs.symlinkSync(mine, link);
    return true;
  }
};
