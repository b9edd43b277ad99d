// The owner's liveness is judged by a predicate of another module of the
// project (its body is out of sight, its name says what it answers). The
// lock is created exclusively here; the takeover removes it by name after
// judging the recorded owner dead (line 29), so two contenders that both
// judged it stale race; the release by name (line 40) then deletes a
// successor's lock.
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { isProcessAlive } from "../util/process.ts";

const LOCK = "/tmp/tool/merge.lock";

function tryCreate(): boolean {
  try {
    writeFileSync(LOCK, JSON.stringify({ pid: process.pid }), { flag: "wx" });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

export function acquire(): () => void {
  if (!tryCreate()) {
    const holder = JSON.parse(readFileSync(LOCK, "utf8")) as { pid: number };
    if (isProcessAlive(holder.pid)) {
      throw new Error(`held by ${holder.pid}`);
    }
    try {
      unlinkSync(LOCK);
    } catch {
      // gone already
    }
    if (!tryCreate()) throw new Error("raced");
  }
  return release;
}

function release(): void {
  try {
    unlinkSync(LOCK);
  } catch {
    // gone already
  }
}
