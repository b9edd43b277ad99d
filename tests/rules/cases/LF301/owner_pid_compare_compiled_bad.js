"use strict";
// TypeScript's CommonJS output for an owner-checked release: the record is
// read (through a helper of another module), its pid compared with ours, and
// the lock is then removed by name; another process may have replaced it in
// between. Imported calls are spelled `(0, mod.fn)(...)` and await as yield.
Object.defineProperty(exports, "__esModule", { value: true });
exports.release = release;
const tslib_1 = require("tslib");
const fs_1 = require("node:fs");
const record_1 = require("./record");
function release(target) {
    return tslib_1.__awaiter(this, void 0, void 0, function* () {
        const marker = `${target}.owner`;
        if (!(0, fs_1.existsSync)(marker)) {
            return false;
        }
        const owner = yield (0, record_1.readOwner)(marker);
        if (owner && owner.pid === process.pid) {
            (0, fs_1.unlinkSync)(marker);
            return true;
        }
        return false;
    });
}
