// The pid file's writer keeps its remover as a closure over its own
// parameter. The writer creates the file exclusively, so the closure removes
// the lock: after judging the recorded owner dead (line 18), after losing the
// create to a rival (line 27, deleting the rival's pid file), and on exit by
// name (line 32, the release in a module that breaks the lock).
const fs = require("fs");

exports.write = function writePidFile(filename) {
  let fd;
  if (fs.existsSync(filename)) {
    const oldPid = parseInt(fs.readFileSync(filename, "utf8"), 10);
    try {
      process.kill(oldPid, 0);
      console.error(`process ${oldPid} still runs`);
      process.exit(1);
    } catch (error) {
      if (error.code !== "ESRCH") throw error;
      removePidFile();
    }
  }
  try {
    fd = fs.openSync(filename, "wx");
    fs.writeSync(fd, `${process.pid}\n`);
    process.on("exit", removePidFile);
  } catch (error) {
    console.warn(`could not create ${filename}: ${error.code}`);
    removePidFile();
  }

  function removePidFile() {
    try {
      fs.unlinkSync(filename);
      if (typeof fd === "number") fs.closeSync(fd);
    } catch {
      /* already gone */
    }
  }
};
