// A read in one callback and a write in a sibling callback are two separate
// bodies: neither runs after the other as one read-modify-write (test cases,
// the read/write closures of a store object).
import { readFileSync, writeFileSync } from "node:fs";

declare function describe(name: string, fn: () => void): void;
declare function it(name: string, fn: () => void): void;

describe("state file", () => {
  const stateFile = "/var/lib/app/state.json";

  it("reads the state", () => {
    const state = JSON.parse(readFileSync(stateFile, "utf8"));
    if (!state.ready) throw new Error("not ready");
  });

  it("writes the state", () => {
    writeFileSync(stateFile, JSON.stringify({ ready: true }));
  });
});

export function cursorStore(file: string) {
  return {
    load: () => JSON.parse(readFileSync(file, "utf8")),
    save: (value: unknown) => {
      writeFileSync(file, JSON.stringify(value));
    },
  };
}
