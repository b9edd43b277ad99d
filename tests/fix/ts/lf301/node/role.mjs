// One real process in the LF301 contention test (test_ts_fix_lf301.py):
//   node role.mjs <case> <module> <lockfile> <role> <staleMs>
// holder:    take the lock, print "held", block until a line arrives on stdin
//            (the test stops this process meanwhile: a paused holder), then
//            release it the module's way and print "released" (or the error);
// successor: take the lock, breaking a stale one the module's way (retrying
//            for up to 5 s), print "took", block until a line on stdin, exit
//            (its own release is not what is tested);
// third:     try once; print "acquired" or "refused".
import fs from "node:fs";
import { holder } from "./adapters.mjs";

const [name, module, file, role, staleMs] = process.argv.slice(2);
const hold = await holder(name, module, file, Number(staleMs));

function waitLine() {
  const buf = Buffer.alloc(64);
  for (;;) {
    try {
      const n = fs.readSync(0, buf, 0, buf.length, null);
      if (n === 0 || buf.subarray(0, n).includes(10)) return;
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
    }
  }
}

const say = (s) => fs.writeSync(1, s + "\n");

if (role === "holder") {
  try {
    const took = await hold(() => { say("held"); waitLine(); });
    say(took ? "released" : "refused");
  } catch (e) {
    say(`error ${e.code}`);
  }
} else if (role === "successor") {
  const until = Date.now() + 5000;
  let took = false;
  while (!took && Date.now() < until) {
    took = await hold(() => {
      say("took");
      waitLine();
      process.exit(0); // leave with the lock held: what happens to it is the test
    });
  }
  say("gave up");
  process.exit(1);
} else if (role === "third") {
  say((await hold(() => {})) ? "acquired" : "refused");
}
