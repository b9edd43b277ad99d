// A pid lock in callback style: the create hands EEXIST to the caller's
// callback (it relies on exclusivity), a dead owner's lock is unlinked by name,
// and `unlock(file)` - the same API argument as `lock(file)` - releases by
// name: a holder whose lock was broken deletes its successor's.
const fs = require("fs");

function ownerAlive(file, done) {
  fs.readFile(file, "utf8", (err, text) => {
    if (err) return done(err);
    try {
      process.kill(Number(text), 0);
      done(null, true);
    } catch (e) {
      done(null, e.code === "EPERM");
    }
  });
}

function lock(file, done) {
  fs.writeFile(file, String(process.pid), { flag: "wx" }, (err) => {
    if (!err || err.code !== "EEXIST") return done(err);
    ownerAlive(file, (e, alive) => {
      if (e || alive) return done(e || new Error("locked"));
      fs.unlink(file, (e2) => (e2 ? done(e2) : lock(file, done)));
    });
  });
}

function unlock(file, done) {
  fs.unlink(file, done);
}

module.exports = { lock, unlock };
