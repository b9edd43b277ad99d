// Removing the lock this process created a moment ago, because the next step
// of taking it failed (the owner record could not be written, the mtime probe
// failed), is no removal of a judged lock: nobody could have judged a lock
// that fresh stale and retaken it in between. Those rollbacks (lines 23, 42,
// 55) are not reported; the stale breaks beside them (lines 17, 35) are.
import { mkdir, open, rmdir, stat, writeFile } from "node:fs/promises";
import * as fs from "node:fs";
import * as path from "node:path";

const STALE_MS = 10_000;

export async function take(lockDir: string): Promise<boolean> {
  try {
    await mkdir(lockDir);
  } catch {
    const st = await stat(lockDir);
    if (Date.now() - st.mtimeMs > STALE_MS) await rmdir(lockDir);
    return false;
  }
  try {
    await writeFile(path.join(lockDir, "owner"), JSON.stringify({ pid: process.pid, at: Date.now() }));
  } catch (err) {
    await rmdir(lockDir).catch(() => {});
    throw err;
  }
  return true;
}

export async function takeFile(lockPath: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, "wx");
  } catch {
    const st = fs.statSync(lockPath);
    if (Date.now() - st.mtimeMs > STALE_MS) fs.unlinkSync(lockPath);
    return false;
  }
  try {
    await handle.writeFile(JSON.stringify({ pid: process.pid }));
  } catch (err) {
    await handle.close().catch(() => {});
    fs.unlinkSync(lockPath);
    throw err;
  }
  await handle.close();
  return true;
}

export function takeCallback(lockDir: string, probe: (p: string, cb: (e: Error | null) => void) => void,
                             done: (e: Error | null) => void): void {
  fs.mkdir(lockDir, (err) => {
    if (err) return done(err);
    probe(lockDir, (probeErr) => {
      if (probeErr) {
        fs.rmdir(lockDir, () => {});
        return done(probeErr);
      }
      done(null);
    });
  });
}
