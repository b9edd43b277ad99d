// A cross-session counter kept through an imported state module: the read is
// defaulted (`|| {}`), and what is written back is a new object whose count
// is computed from the read through a const. Two sessions that read the same
// count both write count + 1: one increment is lost.
import { readJsonState, writeJsonState } from "./lib/state.mjs";

export function recordArchive(committed) {
  if (!committed) return;
  const today = new Date().toISOString().slice(0, 10);
  const prior = readJsonState("daily-stats.json") || {};
  const archives = prior.date === today ? Number(prior.archives || 0) + 1 : 1;
  writeJsonState("daily-stats.json", { date: today, archives });
}

export function recordVisit(page) {
  const visits = readJsonState("visits.json") ?? {};
  const count = (visits[page] || 0) + 1;
  writeJsonState("visits.json", { ...visits, [page]: count });
}
