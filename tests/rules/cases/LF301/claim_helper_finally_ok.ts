// Breakers are serialised by a claim directory the eviction helper makes
// itself (mkdir fails while another process evicts) and removes in its
// finally. Calling the helper after a failed create takes and releases that
// claim, its own: the rmdir breaks nobody's claim.
import { mkdirSync, openSync, rmdirSync } from "node:fs";

function evictUnderClaim(lockPath: string): boolean {
  return lockPath.length > 0;
}

function tryEvict(lockPath: string): boolean {
  const claim = `${lockPath}.reclaim`;
  try {
    mkdirSync(claim);
  } catch {
    return false;
  }
  try {
    return evictUnderClaim(lockPath);
  } finally {
    rmdirSync(claim);
  }
}

export function tryAcquire(lockPath: string): boolean {
  try {
    openSync(lockPath, "wx");
    return true;
  } catch {
    return tryEvict(lockPath) && false;
  }
}
