"use strict";
// Comparing a record with our pid makes it an owner record, but a record that
// is only read (never removed) is no finding, and a removal of an unrelated
// cache file next to it is not a lock removal.
const fs = require("node:fs");
function ownedByMe(marker) {
    const owner = JSON.parse(fs.readFileSync(marker, "utf8"));
    return owner.pid === process.pid;
}
function dropCache(cacheFile) {
    if (fs.existsSync(cacheFile)) {
        fs.unlinkSync(cacheFile);
    }
}
module.exports = { ownedByMe, dropCache };
