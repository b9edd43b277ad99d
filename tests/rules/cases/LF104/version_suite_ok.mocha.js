// A mocha suite named `*.mocha.js` (pm2's test/programmatic/version.mocha.js):
// it imports an assertion library and registers a suite at top level.
const fs = require("fs");
const { expect } = require("chai");

describe("version bump", function () {
  it("rewrites the fixture's package.json", function () {
    const pkg = JSON.parse(fs.readFileSync("fixtures/package.json", "utf8"));
    pkg.version = "1.0.1";
    fs.writeFileSync("fixtures/package.json", JSON.stringify(pkg));
    expect(pkg.version).to.equal("1.0.1");
  });
});
