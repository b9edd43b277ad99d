// A test's own read-modify-write of the file it set up: test code (by its
// name, as test runners collect it), whose documents are its fixtures, not
// state shared by concurrent processes of the product.
import fs from "node:fs";
import { test } from "node:test";

test("counter round trip", () => {
  const path = "state.json";
  fs.writeFileSync(path, "{}");
  const state = JSON.parse(fs.readFileSync(path, "utf8"));
  state.count = (state.count || 0) + 1;
  fs.writeFileSync(path, JSON.stringify(state));
});
