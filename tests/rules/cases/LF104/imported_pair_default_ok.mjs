// The same helpers, but what is written back is not made from what was read:
// a fresh record replaces the document whole, whatever another session wrote.
import { readJsonState, writeJsonState } from "./lib/state.mjs";

export function markSeen(sessionId) {
  const prior = readJsonState("last-seen.json") || {};
  const when = new Date().toISOString();
  if (prior.session === sessionId) return;
  writeJsonState("last-seen.json", { session: sessionId, when });
}

// A count computed from what was read, but of a document the caller names
// (this hook's caller passes one session's own cache file): nothing here
// shows a second writer of it.
import { readSessionCache, writeSessionCache } from "./session-cache.mjs";

export function countTurn(cacheFile) {
  const cached = readSessionCache(cacheFile);
  const turns = (cached.turns ?? 0) + 1;
  writeSessionCache(cacheFile, { turns });
  return turns;
}
