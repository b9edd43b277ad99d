// A daemon publishes its pid for other tools to read, and removes the file
// on exit. It writes the file plainly (not exclusively), never asks whether
// a pid is alive and never looks at the file before writing it: nothing in
// this module keeps anyone out with it, so removing it by name breaks no
// lock. (A module that reads it to refuse a second start is where that
// judgement, and its removal, would be.)
const fs = require("fs");
const path = require("path");
const os = require("os");

const pidFile = path.join(os.tmpdir(), "daemon.pid");

function create() {
  fs.writeFileSync(pidFile, process.pid.toString());
}

function read() {
  if (fs.existsSync(pidFile)) {
    return fs.readFileSync(pidFile, "utf-8");
  }
}

function remove() {
  if (fs.existsSync(pidFile)) {
    fs.unlinkSync(pidFile);
  }
}

module.exports = { create, read, remove };
