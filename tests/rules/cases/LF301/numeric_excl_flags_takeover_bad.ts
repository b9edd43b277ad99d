// The lock file is created with numeric open flags held in a const
// (O_CREAT | O_EXCL | O_WRONLY): an exclusive create, like "wx". When it
// exists and its owner is judged dead, the module takes it over by
// overwriting it; the holder's release then removes it by name, with only an
// in-memory flag to go on: a holder that was judged dead while it lived (or
// two takers racing) deletes the lock of the process that took it over.
import { constants, readFile, unlink, writeFile } from "node:fs/promises";

const CREATE_NEW = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY;
const OVERWRITE = constants.O_CREAT | constants.O_TRUNC | constants.O_WRONLY;

async function ownerGone(file: string): Promise<boolean> {
  const pid = Number.parseInt(await readFile(file, "utf8"), 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

async function claim(file: string, owner: string): Promise<void> {
  try {
    await writeFile(file, owner, { flag: CREATE_NEW });
  } catch (err) {
    if (!(await ownerGone(file))) throw err;
    await writeFile(file, owner, { flag: OVERWRITE });
  }
}

export class SpoolLock {
  private held = false;

  constructor(private readonly file: string) {}

  async take(): Promise<void> {
    await claim(this.file, `${process.pid}`);
    this.held = true;
  }

  async give(): Promise<void> {
    if (!this.held) return;
    this.held = false;
    await unlink(this.file).catch(() => undefined);
  }
}
