// The accessor pair used safely: every update runs inside a cross-process lock
// (proper-lockfile), and reading alone, or replacing the whole document
// without reading it, is no read-modify-write.
import fs from "node:fs";
import lockfile from "proper-lockfile";

export default class LockedPrefs {
  constructor(file) {
    this._file = file;
  }

  get data() {
    return JSON.parse(fs.readFileSync(this._file, "utf8"));
  }

  set data(value) {
    fs.writeFileSync(this._file, JSON.stringify(value));
  }

  async put(name, value) {
    const release = await lockfile.lock(this._file);
    try {
      const all = this.data;
      all[name] = value;
      this.data = all;
    } finally {
      await release();
    }
  }

  get(name) {
    return this.data[name];
  }

  reset() {
    this.data = {};
  }
}
