// The age is the smaller of the recorded start's and the mtime's
// (Math.min over a conditional Math.max), kept in a name that one branch
// sets, and compared a few lines later (line 31): one finding, at that
// comparison, the line that decides the lock is stale.
import { promises as fs } from 'node:fs';

const STALE_MS = 5 * 60_000;

export async function claim(lockPath: string): Promise<boolean> {
  try {
    await fs.writeFile(lockPath, JSON.stringify({ pid: process.pid, at: Date.now() }), { flag: 'wx' });
    return true;
  } catch {
    let corrupt = false;
    let rec: { pid?: number; at?: number } = {};
    try {
      rec = JSON.parse(await fs.readFile(lockPath, 'utf8'));
    } catch {
      corrupt = true;
    }
    const now = Date.now();
    const fromRecord = Math.max(0, now - (rec.at ?? 0));
    let age: number;
    if (corrupt) {
      age = STALE_MS + 1;
    } else {
      const st = await fs.stat(lockPath).catch(() => null);
      const fromMtime = st ? Math.max(0, now - st.mtimeMs) : fromRecord;
      age = Math.min(fromRecord, fromMtime);
    }
    if (age < STALE_MS) return false;
    await fs.unlink(lockPath);
    return claim(lockPath);
  }
}
