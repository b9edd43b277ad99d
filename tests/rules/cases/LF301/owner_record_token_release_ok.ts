// A lock published by link(2) from a per-process candidate file. The owner
// record carries this process's pid (an injectable option defaulting to
// process.pid) and a fresh nonce; the takeover re-checks the inode through a
// helper before removing, and the release removes only while the record
// still names this process. The candidate is tidied up by its creator.
import { randomUUID } from "node:crypto";
import { closeSync, existsSync, linkSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";

interface Owner {
  pid: number;
  nonce: string;
}

function sameInode(a: { dev: number; ino: number }, b: { dev: number; ino: number }): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

function publish(lockPath: string, owner: Owner): boolean {
  const candidate = join(dirname(lockPath), `.cand-${owner.pid}-${owner.nonce}`);
  const fd = openSync(candidate, "wx");
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(candidate, lockPath);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw e;
  } finally {
    if (existsSync(candidate)) unlinkSync(candidate);
  }
}

export function takeLock(opts: { lockPath: string; pid?: number }): () => void {
  const owner = { pid: opts.pid ?? process.pid, nonce: randomUUID() };
  if (!publish(opts.lockPath, owner)) {
    const before = lstatSync(opts.lockPath);
    const seen: Owner = JSON.parse(readFileSync(opts.lockPath, "utf8"));
    if (alive(seen.pid)) throw new Error("locked");
    if (!sameInode(before, lstatSync(opts.lockPath))) throw new Error("locked");
    unlinkSync(opts.lockPath);
    if (!publish(opts.lockPath, owner)) throw new Error("locked");
  }
  return () => {
    if (!existsSync(opts.lockPath)) return;
    const current: Owner = JSON.parse(readFileSync(opts.lockPath, "utf8"));
    if (current.pid === owner.pid && current.nonce === owner.nonce) {
      unlinkSync(opts.lockPath);
    }
  };
}
