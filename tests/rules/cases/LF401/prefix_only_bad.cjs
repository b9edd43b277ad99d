const fs = require("fs");
const path = require("path");

function saveA(dir, name, text) {
  const target = path.join(dir, name);
  const staging = path.join(dir, `tmp_${name}`);
  fs.writeFileSync(staging, text);
  fs.renameSync(staging, target);
}

function saveB(dir, name, text) {
  const staging = path.join(dir, "tmp_" + name);
  fs.writeFileSync(staging, text);
  fs.renameSync(staging, path.join(dir, name));
}

function saveC(file, text) {
  const hidden = path.join(path.dirname(file), `.${path.basename(file)}`);
  fs.writeFileSync(hidden, text);
  fs.renameSync(hidden, file);
}

function notA(dir, name, text) {
  const staging = path.join(dir, `tmp_${name}`);
  fs.writeFileSync(staging, text);
  fs.renameSync(staging, path.join(dir, "other"));
}

function notB(final, text) {
  const t = "tmp_" + final;
  fs.writeFileSync(t, text);
  fs.renameSync(t, final);
}

module.exports = { saveA, saveB, saveC, notA, notB };
