// A command script whose subcommands each run in their own `case`: the reads
// of `list` and `show` end in `break` and never reach the write of `set`, so
// they are no update. The read of `set` itself is one (reported there).
import fs from 'node:fs';
import path from 'node:path';

export function main(cmd, dir, key, value) {
  const file = path.join(dir, 'state.json');
  switch (cmd) {
    case 'list': {
      const all = JSON.parse(fs.readFileSync(file, 'utf8'));
      console.log(Object.keys(all).join('\n'));
      break;
    }
    case 'show': {
      const one = JSON.parse(fs.readFileSync(file, 'utf8'));
      console.log(one[key]);
      break;
    }
    case 'set': {
      const state = JSON.parse(fs.readFileSync(file, 'utf8'));
      state[key] = value;
      fs.writeFileSync(file, JSON.stringify(state));
      break;
    }
    default:
      throw new Error(`unknown command ${cmd}`);
  }
}

export function early(dir, verbose) {
  const file = path.join(dir, 'state.json');
  if (verbose) {
    const seen = JSON.parse(fs.readFileSync(file, 'utf8'));
    console.log(seen);
    return;
  }
  const fresh = { at: Date.now() };
  fs.writeFileSync(file, JSON.stringify(fresh));
}

function loadDoc(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function saveDoc(file, doc) {
  fs.writeFileSync(file, JSON.stringify(doc));
}

// The same through the module's reader and writer: only `add` updates.
export function playbook(cmd, file, item) {
  switch (cmd) {
    case 'list': {
      const doc = loadDoc(file);
      console.log(doc.items.join('\n'));
      break;
    }
    case 'add': {
      const doc = loadDoc(file);
      doc.items.push(item);
      saveDoc(file, doc);
      break;
    }
  }
}
