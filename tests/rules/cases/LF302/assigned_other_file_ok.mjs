// The same shapes on a cache file, which nothing uses as a lock.
import { promises as fsp, statSync, readFileSync } from "node:fs";

export function cached(file, maxAgeMs) {
  let written;
  try {
    written = statSync(file).mtimeMs;
  } catch {
    return null;
  }
  if (Date.now() - written > maxAgeMs) return null;
  return readFileSync(file, "utf8");
}

export function fresh(file, maxAgeMs) {
  const cutoff = Date.now() - maxAgeMs;
  return fsp.stat(file).then((st) => cutoff < st.mtimeMs);
}
