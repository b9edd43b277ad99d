// stop() judges the daemon's pid dead and unlinks its pid lock by name: a
// takeover race, reported there (line 29). After sending SIGTERM, kill()
// removes the pid file of the owner it has just stopped: a cleanup,
// not a judgement racing a breaker (line 38, no finding). The CLI registers
// status() and stop() as two commands' handlers: status()'s look at the lock
// runs in another handler, so stop()'s call is no takeover of its own.
import fs from "node:fs";

function isRunning(pid) {
  try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; }
}

const PID_FILE = "/tmp/app.pid";

export function start() {
  const ppath = PID_FILE;
  try { fs.writeFileSync(ppath, String(process.pid), { flag: "wx" }); return 0; } catch (e) { return 1; }
}

export function status() {
  const ppath = PID_FILE;
  if (!fs.existsSync(ppath)) return 3;
  return isRunning(parseInt(fs.readFileSync(ppath, "utf8"), 10)) ? 0 : 3;
}

export function stop() {
  const ppath = PID_FILE;
  const pid = parseInt(fs.readFileSync(ppath, "utf8"), 10);
  if (!isRunning(pid)) { fs.unlinkSync(ppath); return 0; }
  try { process.kill(pid, "SIGTERM"); } catch (e) {}
  return 1;
}

export function kill() {
  const ppath = PID_FILE;
  const pid = parseInt(fs.readFileSync(ppath, "utf8"), 10);
  try { process.kill(pid, "SIGTERM"); } catch (e) {}
  fs.unlinkSync(ppath);
}

export default function register(program) {
  program.command("status").action(async () => {
    const code = await status();
    process.exitCode = code;
  });
  program.command("stop").action(async () => {
    const code = await stop();
    process.exitCode = code;
  });
}
