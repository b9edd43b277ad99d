// Setup steps that make sure of an entry, and a package manifest edited by a
// build script: no state processes keep side by side.
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ENTRY = '.cache/';

export async function ensureGitignore(root: string): Promise<void> {
  const p = join(root, '.gitignore');
  const content = await readFile(p, 'utf-8');
  if (content.includes(ENTRY)) return;
  await writeFile(p, `${content}\n${ENTRY}\n`, 'utf-8');
}

export function bumpVersion(root: string, version: string): void {
  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  pkg.version = version;
  writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
}

export function copyWithHeader(src: string, dst: string): void {
  const text = readFileSync(src, 'utf8');
  writeFileSync(dst, text + '\n// generated\n'); // another file
}
