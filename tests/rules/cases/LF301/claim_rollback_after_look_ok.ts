// A task claim: the claim file is looked at first (who holds it?), then created
// exclusively (a failed create looks again, to name the winner, and throws);
// when the task's own update fails right after, the claim just
// made is removed. That removal undoes this process's own create: the look
// came before the create, and no one can have judged the fresh claim since.
import { join } from "node:path";
import { existsSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";

function saveTask(taskPath: string, task: object): void {
  writeFileSync(`${taskPath}.${process.pid}.tmp`, JSON.stringify(task));
  renameSync(`${taskPath}.${process.pid}.tmp`, taskPath);
}

export function claim(claimsDir: string, taskId: string, taskPath: string, agent: string): void {
  const claimPath = join(claimsDir, `${taskId}.claim`);
  if (existsSync(claimPath)) {
    try {
      const owner = readFileSync(claimPath, "utf8").split("\t")[0];
      if (owner === agent) return;
      throw new Error(`claimed by ${owner}`);
    } catch (err) {
      if (err instanceof Error && err.message.startsWith("claimed by")) throw err;
      // unreadable: try the exclusive create
    }
  }
  try {
    writeFileSync(claimPath, `${agent}\t${Date.now()}\n`, { flag: "wx" });
  } catch {
    let owner = "unknown";
    try {
      owner = readFileSync(claimPath, "utf8").split("\t")[0];
    } catch {}
    throw new Error(`claimed by ${owner}`);
  }
  try {
    saveTask(taskPath, { status: "in_progress", agent });
  } catch (err) {
    try {
      unlinkSync(claimPath);
    } catch {}
    throw err;
  }
}
