// A dead holder's lock reclaimed without a check-then-unlink race: the lock
// is renamed to a private name (only one reclaimer can move it), the private
// copy is judged again, deleted only if still dead, and linked back to the
// lock path when it turns out live. The rename away is no removal by name.
import { randomUUID } from "node:crypto";
import { link, readFile, rename, unlink, writeFile } from "node:fs/promises";

async function holderDead(path: string): Promise<boolean> {
  try {
    const pid = Number((await readFile(path, "utf8")).trim());
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function reclaimIfDead(target: string): Promise<void> {
  const claimed = `${target}.reclaim.${randomUUID()}`;
  try {
    await rename(target, claimed);
  } catch {
    return;
  }
  if (await holderDead(claimed)) {
    await unlink(claimed);
  } else {
    try {
      await link(claimed, target);
      await unlink(claimed);
    } catch {
      // retaken meanwhile: leave the private copy
    }
  }
}

export async function acquire(path: string): Promise<void> {
  for (;;) {
    try {
      await writeFile(path, String(process.pid), { flag: "wx" });
      return;
    } catch {
      if (await holderDead(path)) await reclaimIfDead(path);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
