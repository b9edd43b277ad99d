// npm `lockfile` without a `stale` option never breaks a lock: only its
// holder removes it, so the release by name deletes nothing but its own.
// No finding.
const lockFile = require("lockfile");

exports.lock = function (file, callback) {
  lockFile.lock(file, { retries: 1000, retryWait: 50 }, callback);
};

exports.unlock = function (file, callback) {
  lockFile.unlock(file, callback);
};
