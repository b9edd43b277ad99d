// An installer hard-links a built file into place, replacing what was there.
// The module never reads the linked file back nor probes a process: the link
// is no lock, and removing the old file is no removal of a lock.
const fs = require("fs");

function place(built, target) {
  try {
    fs.linkSync(built, target);
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
    fs.unlinkSync(target);
    fs.linkSync(built, target);
  }
}

module.exports = { place };
