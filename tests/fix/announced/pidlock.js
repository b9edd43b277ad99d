// A pid lock whose liveness probe reads EPERM as dead and trusts a reused pid.
const fs = require('fs');

const LOCK = '/var/run/sync-worker.pid';

function ownerAlive() {
  let pid;
  try {
    pid = Number(fs.readFileSync(LOCK, 'utf8').trim());
  } catch {
    return false;
  }
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return true;
}

function take() {
  if (ownerAlive()) throw new Error('another sync-worker is running');
  fs.writeFileSync(LOCK, String(process.pid));
}

module.exports = { take };
