// A session record rebuilt from the input, each field falling back to the
// stored one, and written back with no lock: another process's update of a
// field this input leaves out is overwritten with the stale value.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const sessionsDir = join(process.env.HOME ?? "", ".sessions");

interface Session {
  id: string;
  state?: string;
  action?: string | null;
}

function sessionPath(id: string): string {
  return join(sessionsDir, `${id}.json`);
}

function writeSession(session: Session): void {
  const path = sessionPath(session.id);
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(session));
  renameSync(tmp, path);
}

export function getSession(id: string): Session | null {
  const path = sessionPath(id);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf-8")) as Session;
}

export function upsertSession(input: Session): void {
  const existing = getSession(input.id);
  const session: Session = {
    id: input.id,
    state: input.state ?? existing?.state ?? "busy",
    action: input.action ?? existing?.action ?? null,
  };
  writeSession(session);
}
