// One release helper serves both the holder's release and the stale break.
// The by-name unlink inside it is one finding, which names the call right
// after the age judgement (the breakers' race through it: one root bug, the
// fix binds both); the holder's plain call of it is that finding again.
import { open, stat, unlink } from "node:fs/promises";

export async function dropLock(lockPath: string): Promise<void> {
  await unlink(lockPath).catch(() => {});
}

async function take(lockPath: string): Promise<boolean> {
  try {
    const fd = await open(lockPath, "wx");
    await fd.close();
    return true;
  } catch {
    const st = await stat(lockPath);
    if (Date.now() - st.mtimeMs > 60_000) {
      await dropLock(lockPath);
      return take(lockPath);
    }
    return false;
  }
}

export async function guarded<T>(lockPath: string, fn: () => Promise<T>): Promise<T | undefined> {
  if (!(await take(lockPath))) return undefined;
  try {
    return await fn();
  } finally {
    await dropLock(lockPath);
  }
}
