// Parses every line of the given files (or stdin) with WHATWG `new URL` and prints the rate.
// Usage: node scripts/measure/bench-url-node.js [--repeat N] FILE...
'use strict';
const fs = require('fs');

const args = process.argv.slice(2);
let repeat = 1;
if (args[0] === '--repeat') {
  repeat = Number(args[1]);
  args.splice(0, 2);
}
const text = args.length ? args.map((f) => fs.readFileSync(f, 'utf8')).join('') : fs.readFileSync(0, 'utf8');
const lines = text.split('\n').filter((l) => l.length > 0);

let hosts = 0;
const start = process.hrtime.bigint();
for (let r = 0; r < repeat; r++) {
  for (const line of lines) {
    try {
      hosts += new URL(line).host.length;
    } catch (e) {
      // Unparsable lines count as processed, as in `urlkit parse --get`.
    }
  }
}
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
const n = lines.length * repeat;
console.log(`${n} URLs in ${seconds.toFixed(3)} s: ${Math.round(n / seconds)} URLs/s (checksum ${hosts})`);
