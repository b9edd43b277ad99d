// A smoke-test script: which of the children it started are still alive,
// read from the pid files they wrote, is only reported. The probe's verdict
// goes through `filter` back to the script's own code, which acts on no lock.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function registeredPids(dir: string): number[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".pid"))
    .map((name) => Number.parseInt(readFileSync(join(dir, name), "utf8"), 10));
}

const survivors = registeredPids(process.argv[2] ?? ".").filter((pid) => isAlive(pid));
console.log(JSON.stringify({ survivors }));
