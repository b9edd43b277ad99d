'use strict';
// Every function of this pid-file module builds the path itself from the
// directory its caller hands it, under the same parameter name: one file,
// whichever function spells it. `check` reads the recorded pid, judges it
// dead and removes the file through `remove`, which the server also calls on
// shutdown (exported): the release by name is the root bug, reported inside
// `remove`, and names the takeover in `check`.
const fs = require('node:fs');
const path = require('node:path');

const PID_NAME = 'server.pid';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function readPid(dir) {
  const pidPath = path.join(dir, PID_NAME);
  try {
    const pid = Number.parseInt(fs.readFileSync(pidPath, 'utf8'), 10);
    return pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function write(dir) {
  const pidPath = path.join(dir, PID_NAME);
  fs.writeFileSync(pidPath, String(process.pid));
}

function remove(dir) {
  const pidPath = path.join(dir, PID_NAME);
  try {
    fs.unlinkSync(pidPath);
  } catch {
    // already gone
  }
}

function check(dir) {
  const pid = readPid(dir);
  if (pid === null || alive(pid)) return pid;
  remove(dir);
  return null;
}

module.exports = { check, write, remove };
