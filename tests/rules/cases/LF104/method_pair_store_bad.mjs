// A settings class whose file access sits in two private methods: one reads
// and parses the file, the other serialises and writes it. Its public
// updates read through the first and write through the second, so two
// processes updating at once lose one update.
import fs from "node:fs";

export class Settings {
  #file;
  constructor(file) {
    this.#file = file;
  }

  #load() {
    try {
      return JSON.parse(fs.readFileSync(this.#file, "utf8"));
    } catch {
      return {};
    }
  }

  #persist(doc) {
    fs.writeFileSync(this.#file, JSON.stringify(doc, null, 2));
  }

  #stamp(doc, when) {
    doc.updatedAt = when;
    this.#persist(doc);
  }

  get document() {
    return this.#load();
  }

  set document(doc) {
    this.#persist(doc);
  }

  update(name, value) {
    const doc = this.#load();
    doc[name] = value;
    this.#persist(doc);
  }

  touch(now) {
    this.#stamp(this.#load(), now);
  }

  restoreDefaults(defaults, force) {
    const doc = force ? this.#load() : {};
    this.document = Object.assign(doc, defaults);
  }
}
