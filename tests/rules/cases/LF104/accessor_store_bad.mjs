// A preferences store that reads and writes its JSON file through an accessor
// pair. Every update re-reads the file (good), but nothing keeps another
// process from writing between that read and the write back, so one of two
// concurrent updates is lost.
import fs from "node:fs";
import path from "node:path";

export default class Prefs {
  constructor(file, seed) {
    this._file = file;
    if (seed) {
      this.data = Object.assign({}, seed, this.data);
    }
  }

  get data() {
    try {
      return JSON.parse(fs.readFileSync(this._file, "utf8"));
    } catch (error) {
      if (error instanceof SyntaxError) {
        // unreadable: start over (nothing read is written back here)
        fs.writeFileSync(this._file, "{}");
        return {};
      }
      return {};
    }
  }

  set data(value) {
    fs.mkdirSync(path.dirname(this._file), { recursive: true });
    fs.writeFileSync(this._file, JSON.stringify(value));
  }

  put(name, value) {
    const all = this.data;
    all[name] = value;
    this.data = all;
  }

  get(name) {
    return this.data[name];
  }
}
