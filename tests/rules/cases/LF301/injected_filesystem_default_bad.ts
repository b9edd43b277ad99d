// The lock's file operations go through an injectable object: a caller may
// hand its own in `options.filesystem`, else the module's default forwards
// each one to node:fs. What runs in production is the default, so the wx
// create is an exclusive create and the rm after a dead owner a takeover
// by name.
import { readFile, rm, writeFile } from "node:fs/promises";

const defaultFilesystem = {
  readFile: async (path: string, encoding: "utf8") => readFile(path, encoding),
  rm: async (path: string, options: { force: boolean }) => rm(path, options),
  writeFile: async (path: string, data: string, options: { flag: string }) => writeFile(path, data, options),
};

function ownerAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function acquire(lockPath: string, options: { filesystem?: typeof defaultFilesystem } = {}) {
  const filesystem = options.filesystem ?? defaultFilesystem;
  for (;;) {
    try {
      await filesystem.writeFile(lockPath, String(process.pid), { flag: "wx" });
      return;
    } catch {
      const pid = Number(await filesystem.readFile(lockPath, "utf8"));
      if (!ownerAlive(pid)) await filesystem.rm(lockPath, { force: true });
    }
  }
}
