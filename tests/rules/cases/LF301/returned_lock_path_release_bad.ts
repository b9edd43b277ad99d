// The acquire helper returns the path of the lock it made, and its caller
// hands that path to a release helper. The acquire helper deletes the lock by
// name once it has waited long enough, whoever holds it: so the release,
// which removes by name with no owner check, can delete the lock of the
// process that took it over meanwhile. The parameter is the lock the module
// breaks, reported at the release helper's removal.
import { open, unlink } from "node:fs/promises";

const GIVE_UP_MS = 4000;

async function obtain(target: string): Promise<string> {
  const guard = `${target}.guard`;
  const first = Date.now();
  for (;;) {
    try {
      const handle = await open(guard, "wx");
      await handle.close();
      return guard;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() - first > GIVE_UP_MS) {
        await unlink(guard).catch(() => undefined);
        continue;
      }
      await new Promise((done) => setTimeout(done, 15));
    }
  }
}

async function letGo(guard: string): Promise<void> {
  await unlink(guard).catch(() => undefined);
}

export async function exclusively<T>(target: string, work: () => Promise<T>): Promise<T> {
  const guard = await obtain(target);
  try {
    return await work();
  } finally {
    await letGo(guard);
  }
}
