// Staleness is decided by the owner's liveness whenever the owner record
// parses; the directory's age decides only for a lock without an owner (its
// creator died between mkdir and writing owner.json). Every branch of the
// probe returns, through a try/catch.
import fs from "node:fs";
import path from "node:path";

function readOwner(lockDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(lockDir, "owner.json"), "utf8"));
  } catch {
    return null;
  }
}

export function lockIsStale(lockDir, staleMs) {
  const owner = readOwner(lockDir);
  if (owner && Number.isInteger(owner.pid) && owner.pid > 0) {
    try {
      process.kill(owner.pid, 0);
      return false;
    } catch (e) {
      if (e?.code === "ESRCH") return true;
      return false;
    }
  }
  try {
    return Date.now() - fs.statSync(lockDir).mtimeMs >= staleMs;
  } catch {
    return false;
  }
}

export function withLock(lockDir, staleMs, fn) {
  try {
    fs.mkdirSync(lockDir);
  } catch (e) {
    if (e.code !== "EEXIST") throw e;
    if (!lockIsStale(lockDir, staleMs)) return false;
    const tomb = `${lockDir}.stale.${process.pid}.${Date.now()}`;
    fs.renameSync(lockDir, tomb);
    fs.rmSync(tomb, { recursive: true, force: true });
    fs.mkdirSync(lockDir);
  }
  fs.writeFileSync(path.join(lockDir, "owner.json"), JSON.stringify({ pid: process.pid }));
  try {
    fn();
  } finally {
    const owner = readOwner(lockDir);
    if (owner && owner.pid === process.pid) fs.rmSync(lockDir, { recursive: true, force: true });
  }
  return true;
}
