// A suite under test/ whose file name no runner pattern gives away (pnpm's
// test/ci.ts): it registers tests at top level with jest's globals, so it is
// test code, and its project files are its own fixtures.
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@jest/globals";

test("ci keeps the manifest's scripts", () => {
  const manifest = path.join("project", "package.json");
  const pkg = JSON.parse(fs.readFileSync(manifest, "utf8"));
  pkg.scripts = { ...pkg.scripts, ci: "pnpm ci" };
  fs.writeFileSync(manifest, JSON.stringify(pkg));
  expect(pkg.scripts.ci).toBe("pnpm ci");
});
