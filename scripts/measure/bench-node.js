// Node's encodeURIComponent / decodeURIComponent on the benchmark workloads written by
// `bench-python.py write` into the directory given as the first argument: best of N runs, in
// process. Prints `workload<TAB>node<TAB>GB/s` lines.
"use strict";
const fs = require("fs");
const path = require("path");

const dir = process.argv[2];
const runs = Number(process.argv[3] || 10);
const names = [
  "decode/urls",
  "decode/urls-escaped",
  "decode/multilingual-escaped",
  "encode/urls",
  "encode/multilingual",
];

function lineByLine(text) {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    try {
      lines[i] = decodeURIComponent(lines[i]);
    } catch (e) {
      // Kept as it is.
    }
  }
  return lines.join("\n");
}

function best(fn, text) {
  let min = Infinity;
  let sink = 0;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    sink += fn(text).length;
    const ns = Number(process.hrtime.bigint() - start);
    if (ns < min) min = ns;
  }
  if (sink < 0) console.log(sink);
  return min;
}

for (const name of names) {
  const bytes = fs.readFileSync(path.join(dir, name.replace("/", "_")));
  const text = bytes.toString("utf8");
  let fn = name.startsWith("decode/") ? decodeURIComponent : encodeURIComponent;
  if (fn === decodeURIComponent) {
    try {
      decodeURIComponent(text);
    } catch (e) {
      // The input has escapes that are not UTF-8, which decodeURIComponent rejects as a
      // whole: decode line by line, keeping a rejected line as it is.
      console.error(`node: ${name}: ${e.message}; decoding line by line`);
      fn = lineByLine;
    }
  }
  const ns = best(fn, text);
  console.log(`${name}\tnode\t${(bytes.length / ns).toFixed(4)}`);
}
