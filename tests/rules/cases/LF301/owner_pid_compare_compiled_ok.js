"use strict";
// TypeScript's CommonJS output for an owner-checked release: the record is
// read (through a helper of another module), its pid compared with ours, and
// only then is the lock removed by name. Nothing in the module breaks the lock,
// so a live holder's lock cannot change hands between the read and the
// removal: this is the holder's own release. Imported calls are spelled
// `(0, mod.fn)(...)` and await as yield.
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
