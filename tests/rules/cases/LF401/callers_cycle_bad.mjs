// write() and #write() call each other (the pending data is written from
// #write's finally), and nothing in the module takes a lock on the way in:
// write() is called from outside. A cycle of callers proves no lock held.
import { rename, writeFile } from 'node:fs/promises';

export class Writer {
  #file;
  #busy = false;
  #pending = null;

  constructor(file) {
    this.#file = file;
  }

  async #write(data) {
    this.#busy = true;
    try {
      await writeFile(`${this.#file}.tmp`, data);
      await rename(`${this.#file}.tmp`, this.#file);
    } finally {
      this.#busy = false;
      if (this.#pending !== null) {
        const next = this.#pending;
        this.#pending = null;
        await this.write(next);
      }
    }
  }

  async write(data) {
    if (this.#busy) {
      this.#pending = data;
      return;
    }
    await this.#write(data);
  }
}
