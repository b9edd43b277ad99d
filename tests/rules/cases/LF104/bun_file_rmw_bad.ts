// Bun's file API (opencode plugins run on Bun): `Bun.file(p)` read through
// its `.text()` (directly, or through a handle kept in a name) and written
// back with `Bun.write(p, ...)`, with no lock held: two read-modify-writes
// (lines 7 and 13). A handle only tested with `.exists()` reads nothing
// (line 20).
export async function bumpCounter(path: string, id: string): Promise<void> {
  const data = JSON.parse(await Bun.file(path).text());
  data[id] = (data[id] || 0) + 1;
  await Bun.write(path, JSON.stringify(data));
}

export async function resetSession(statsFile: string): Promise<void> {
  const file = Bun.file(statsFile);
  const stats = JSON.parse(await file.text());
  stats.session = { tokens: 0, startedAt: Date.now() };
  await Bun.write(statsFile, JSON.stringify(stats));
}

export async function initStats(statsFile: string): Promise<void> {
  if (await Bun.file(statsFile).exists()) return;
  await Bun.write(statsFile, JSON.stringify({ session: {}, total: {} }));
}
