// Releases that remove the lock only while its record names this process or
// this acquisition, in a module that breaks the lock only after judging its
// holder dead. A live holder's lock never changes hands, so nothing can come
// between the read of the record and the removal.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readRecord(lockPath: string): { pid: number; owner: string } | null {
  try {
    return JSON.parse(fs.readFileSync(lockPath, "utf8"));
  } catch {
    return null;
  }
}

function newToken(): string {
  return `${process.pid}:${randomUUID()}`;
}

// Removed only when the recorded pid is ours.
function releaseByPid(lockPath: string): void {
  const record = readRecord(lockPath);
  if (record?.pid === process.pid) {
    fs.unlinkSync(lockPath);
  }
}

// The caller's token, handed down: every call passes a fresh token, not a
// value read from the lock.
function releaseByToken(lockPath: string, owner: string): void {
  const record = readRecord(lockPath);
  if (record?.owner !== owner) {
    return;
  }
  fs.rmSync(lockPath, { force: true });
}

// The raw text, compared with the token it starts with.
function releaseByText(lockPath: string, owner: string): void {
  const current = fs.readFileSync(lockPath, "utf8");
  if (current.startsWith(`${owner}\n`)) fs.unlinkSync(lockPath);
}

export function withLock(lockPath: string, work: () => void): void {
  const owner = newToken();
  try {
    fs.writeFileSync(lockPath, `${owner}\n`, { flag: "wx" });
  } catch {
    const held = readRecord(lockPath);
    if (held && alive(held.pid)) throw new Error("busy");
    fs.rmSync(lockPath, { force: true });
    fs.writeFileSync(lockPath, `${owner}\n`, { flag: "wx" });
  }
  try {
    work();
  } finally {
    releaseByText(lockPath, owner);
    releaseByToken(lockPath, owner);
    releaseByPid(lockPath);
  }
}
