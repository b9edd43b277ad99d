// Each server writes its discovery record under a fresh name
// (`${uuid}.lock`), and a sweep over the directory's `.lock` files deletes the
// records whose owner it judges dead. The probe's catch reads every error as
// "dead": a live server run by another user (EPERM) loses its record. The
// removal itself races no successor: nobody else ever writes that name.
import { randomUUID } from "node:crypto";
import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

function recordsDir(): string {
  return path.join(os.homedir(), ".devservers");
}

export async function publish(port: number): Promise<string> {
  const dir = recordsDir();
  await fs.mkdir(dir, { recursive: true });
  const id = randomUUID();
  const file = path.join(dir, `${id}.lock`);
  await fs.writeFile(file, JSON.stringify({ pid: process.pid, port }));
  return file;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function sweep(): Promise<number> {
  const dir = recordsDir();
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith(".lock"));
  const gone = await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      try {
        const rec = JSON.parse(await fs.readFile(file, "utf8"));
        if (!running(rec.pid)) {
          await fs.unlink(file);
          return true;
        }
      } catch {
        /* unreadable: leave it */
      }
      return false;
    }),
  );
  return gone.filter(Boolean).length;
}
