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

// npm's bin-links shape: look at what is there, read the link back, and
// clobber it when it is ours; still no owner judged alive or dead.
async function linkGently(from, to) {
  const st = await fs.promises.lstat(to).catch(() => null);
  if (st && st.isSymbolicLink() && (await fs.promises.readlink(to)) !== from) {
    await fs.promises.rm(to, { force: true });
  }
  return fs.promises.symlink(from, to).catch(async () => {
    await fs.promises.rm(to, { force: true });
    return fs.promises.symlink(from, to);
  });
}

module.exports.linkGently = linkGently;
