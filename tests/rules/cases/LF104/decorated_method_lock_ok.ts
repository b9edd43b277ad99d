// Methods wrapped by a lock decorator run their whole body holding the lock:
// the read-modify-write of the shared record inside them is serialised.
import * as fs from "fs-extra";
import { lockfile } from "./decorators";

interface Registry {
  readers: number[];
}

export class SharedRegistry {
  constructor(private readonly file: string) {}

  @lockfile("internal")
  async addReader(pid: number): Promise<void> {
    const reg = await this.load();
    reg.readers.push(pid);
    await this.save(reg);
  }

  @lockfile("internal", { sync: true })
  dropReaderSync(pid: number): void {
    const reg: Registry = fs.readJSONSync(this.file);
    reg.readers = reg.readers.filter((p) => p !== pid);
    fs.writeJSONSync(this.file, reg);
  }

  private async load(): Promise<Registry> {
    return fs.readJSON(this.file);
  }

  private async save(reg: Registry): Promise<void> {
    await fs.writeJSON(this.file, reg);
  }
}
