// A store locks its file with npm `lockfile` and a `stale` option: the
// library unlinks a lock whose mtime is older than 10 s and takes it, and
// nothing here refreshes the lock while the holder works. unlock() and
// unlockSync() then remove the lock by name: a holder that ran longer than
// 10 s deletes its successor's lock, and a third writer gets in. LF301 at
// each release.
const lockFile = require("lockfile");

const lockOptions = { stale: 10000, retries: 1000, retryWait: 50 };

exports.lock = function (file, callback) {
  lockFile.lock(file, lockOptions, callback);
};

exports.unlock = function (file, callback) {
  lockFile.unlock(file, callback);
};

exports.unlockSync = function (file) {
  lockFile.unlockSync(file);
};
