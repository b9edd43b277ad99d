// Catches that do not read EPERM as dead: one answers what the success path
// answers (conservatively alive), one tells the codes apart.
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return true;
  }
}

function gone(pid, done) {
  try {
    process.kill(pid, 0);
    done(null, false);
  } catch (err) {
    done(null, err.code === "ESRCH");
  }
}

module.exports = { alive, gone };
