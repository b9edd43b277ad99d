// One interface over the LF301 cases' modules (patched or not), for
// lf301.test.mjs and the contention roles (role.mjs): make(api, file, staleMs)
// gives hold(during): take the lock on `file` the module's way, run
// during() (synchronous: where a holder works, or pauses), release it the
// module's way; resolves to whether the lock was taken. `content` is what the
// module writes into its lock. Modules that read their lock path from the
// environment at import time get it before the import.
import path from "node:path";
import { pathToFileURL } from "node:url";

const pid = String(process.pid);

function holdWith(acquire, release) {
  return async (during) => {
    if (!(await acquire())) return false;
    during();
    await release();
    return true;
  };
}

const CASES = {
  lf301_param: {
    // a stale lock is broken by one call and taken by the next
    make: (api, file, staleMs) =>
      holdWith(async () => (await api.acquireLock(file, staleMs)) || api.acquireLock(file, staleMs),
               () => api.releaseLock(file)),
    content: () => pid,
    missing: "throws",
  },
  lf301_class: {
    make: (api, file, staleMs) => {
      const l = new api.JobLock(file, staleMs);
      return holdWith(() => l.acquire(), () => l.release());
    },
    content: () => pid,
    missing: "throws",
  },
  lf301_token: {
    env: (file) => ({ JOB_LOCK: file }),
    // every holder on this host uses the same token (its hostname, say)
    make: (api) => holdWith(() => api.lock("host-a"), () => api.unlock("host-a")),
    content: () => "host-a",
    missing: "throws",
  },
  lf301_open: {
    make: (api, file, staleMs) => {
      const l = new api.PidFile(file, staleMs);
      return holdWith(() => l.take(), () => l.drop());
    },
    content: () => pid + "\n",
    mode: 0o644,
    missing: "throws",
  },
  lf301_promises: {
    make: (api, file, staleMs) => {
      const l = new api.BuildLock(file, staleMs);
      return holdWith(() => l.tryAcquire(), () => l.release());
    },
    content: () => JSON.stringify({ pid: process.pid }),
    missing: "quiet",
  },
  lf301_rm: {
    env: (file) => ({ STATE_DIR: path.dirname(file) }),
    file: (dir) => path.join(dir, "state.lock"),
    make: (api, file, staleMs) => async (during) => api.runExclusive(staleMs, during),
    content: () => pid,
    missing: "quiet",
  },
  lf301_plain: {
    env: (file) => ({ SYNC_LOCK: file }),
    make: (api) => holdWith(() => api.begin(), () => api.end()),
    content: () => pid,
    missing: "throws",
  },
};

export function caseOf(name) {
  const c = CASES[name];
  if (!c) throw new Error(`no adapter for ${name}`);
  return c;
}

// The lock file a case uses in `dir`.
export function lockFileIn(name, dir) {
  const c = caseOf(name);
  return c.file ? c.file(dir) : path.join(dir, "job.lock");
}

// The case's hold(during) on `file`, from the module at `module`.
export async function holder(name, module, file, staleMs) {
  const c = caseOf(name);
  Object.assign(process.env, c.env ? c.env(file) : {});
  const loaded = await import(pathToFileURL(module).href);
  return c.make({ ...loaded.default, ...loaded }, file, staleMs);
}
