// Method pairs that are no read-modify-write: the read is only returned, the
// write stores fresh data that does not come from the read, and an update
// under a lock-named helper of the class.
import fs from "node:fs";

export class Journal {
  #file;
  constructor(file) {
    this.#file = file;
  }

  #load() {
    return JSON.parse(fs.readFileSync(this.#file, "utf8"));
  }

  #persist(doc) {
    fs.writeFileSync(this.#file, JSON.stringify(doc));
  }

  current() {
    return this.#load();
  }

  replace(fresh) {
    const old = this.#load();
    console.log("replacing", Object.keys(old).length, "keys");
    this.#persist(fresh);
  }

  async update(name, value, withLock) {
    await withLock(this.#file, () => {
      const doc = this.#load();
      doc[name] = value;
      this.#persist(doc);
    });
  }
}
