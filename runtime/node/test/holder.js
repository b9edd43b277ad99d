'use strict';
// Holds a lockrt lock until stdin closes (or it is killed).
//   holder.js LOCK_PATH STRATEGY     prints "held <pid> <strategy> <token|->"
const lockrt = require('../index.js');

const [lockPath, strategy] = process.argv.slice(2);
const handle = lockrt.exclusiveLock(lockPath, { timeout: 30000, strategy });
if (handle === null) {
  process.stdout.write('timeout\n');
  process.exit(3);
}
process.stdout.write(`held ${process.pid} ${handle.strategy} ${handle.token || '-'}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  handle.release();
  process.exit(0);
});
