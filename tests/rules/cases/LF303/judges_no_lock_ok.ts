// A probe that reads every error as "dead" in a module with no lock and no
// record: a generic process-status utility and a status line. Whatever EPERM
// is taken for, nobody's lock is broken.
// A generic process-status utility, in a module with no lock.
export function checkProcess(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// A status line: the verdict is printed.
export function describe(pid: number): string {
  return checkProcess(pid) ? `running (${pid})` : "stopped";
}
