// How installers place links: create, and when something is already there,
// look where it points and replace it if it is not ours. No owner is judged
// alive or dead, so this is no lock, and reading /proc/self is no probe of
// another process.
const fs = require("node:fs");

function placeLink(target, link) {
  try {
    fs.symlinkSync(target, link);
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
    if (fs.readlinkSync(link) !== target) {
      fs.unlinkSync(link);
      fs.symlinkSync(target, link);
    }
  }
}

function selfExe() {
  return fs.readlinkSync("/proc/self/exe");
}

module.exports = { placeLink, selfExe };
