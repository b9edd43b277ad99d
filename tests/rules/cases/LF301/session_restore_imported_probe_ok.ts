// A host process restores the child session it spawned before a restart: it
// adopts the child when its recorded pid still runs and otherwise forgets the
// record. The record names this host's own child, nobody else reads it to
// decide whether to start, and the removal answers no status to a caller: a
// published record, not a lock. No LF301.
import { readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isAlive } from "../util/process.js";

const STATE_FILE = join(process.env.HOME ?? "/tmp", ".host", "child.json");

interface ChildSession {
  pid: number;
  url: string;
}

let active: ChildSession | null = null;

export function remember(session: ChildSession): void {
  writeFileSync(STATE_FILE, JSON.stringify(session));
  active = session;
}

function forget(): void {
  try {
    unlinkSync(STATE_FILE);
  } catch {
    // already gone
  }
}

export function restore(): void {
  let text: string;
  try {
    text = readFileSync(STATE_FILE, "utf8");
  } catch {
    return;
  }
  const session = JSON.parse(text) as ChildSession;
  if (isAlive(session.pid)) {
    active = session;
  } else {
    forget();
  }
}

export function current(): ChildSession | null {
  return active;
}
