function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch {}
  return false;
}
import * as fs from 'fs';
export function save(p: string, d: string): void {
  const tmp = `${p}.tmp`;
  fs.writeFileSync(tmp, d);
  fs.renameSync(tmp, p);
}
