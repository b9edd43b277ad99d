// Created exclusively first, then written plainly when it exists: the
// fallback shares the temp with every other writer that got there first.
import * as fs from 'fs';

export function save(p: string, data: object) {
  const tmp = p + '.tmp';
  try {
    fs.writeFileSync(tmp, JSON.stringify(data), { flag: 'wx' });
  } catch {
    fs.writeFileSync(tmp, JSON.stringify(data));
  }
  fs.renameSync(tmp, p);
}
