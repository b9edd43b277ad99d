// A class hides the document behind a store accessor: the getter reads the
// file and hands it to the class's deserializer, the setter writes it
// through the class's writer. set() takes the store apart from `this`,
// changes a key and assigns it back (lines 23-25): an unlocked
// read-modify-write.
import fs from "node:fs";
export class Conf<T extends Record<string, unknown>> {
  readonly path = "/tmp/conf/config.json";
  get store(): T {
    const data = fs.readFileSync(this.path, "utf8");
    return this._deserialize(data);
  }
  set store(value: T) {
    this._write(value);
  }
  private _deserialize(text: string): T {
    return JSON.parse(text) as T;
  }
  private _write(value: T): void {
    fs.writeFileSync(this.path, JSON.stringify(value));
  }
  set(key: string, value: unknown): void {
    const {store} = this;
    (store as Record<string, unknown>)[key] = value;
    this.store = store;
  }
}
