// Two files created exclusively under names of this process's own; when the
// second create fails, a small unlink helper cleans up both before the error
// is thrown on. Nothing is taken over: the function gives up, and the helper
// only undoes what it made (a cleanup on the way out is no takeover).
import { randomUUID } from "node:crypto";
import { unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

export function publishEndpoint(dir: string, url: string): () => void {
  const base = join(dir, "endpoint");
  const secretFile = `${base}.secret`;
  const infoFile = `${base}.json`;
  try {
    writeFileSync(secretFile, randomUUID(), { flag: "wx", mode: 0o600 });
    writeFileSync(infoFile, JSON.stringify({ url }), { flag: "wx" });
  } catch (error) {
    unlinkQuietly(infoFile);
    unlinkQuietly(secretFile);
    throw error;
  }
  return () => {
    unlinkQuietly(infoFile);
    unlinkQuietly(secretFile);
  };
}
