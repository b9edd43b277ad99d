// The age is computed by a helper of the module (through a conversion of its
// path parameter another package provides) and compared by its caller: a
// holder paused past the timeout loses its lock to an overwriting takeover.
import { statSync, writeFileSync } from 'node:fs';
import { stringifyIfPath } from 'path-class';

export class Mutex {
  #lockfilePath: string;

  constructor(lockfilePath: string) {
    this.#lockfilePath = lockfilePath;
  }

  lock(timeoutMs: number): boolean {
    try {
      writeFileSync(this.#lockfilePath, '', { flag: 'wx' });
    } catch (e) {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
      if (!(lockfileAge(this.#lockfilePath) > timeoutMs)) return false;
      writeFileSync(this.#lockfilePath, '', { flag: 'w' });
    }
    return true;
  }
}

export function lockfileAge(lockfilePath: string): number {
  return Date.now() - statSync(stringifyIfPath(lockfilePath)).mtimeMs;
}
