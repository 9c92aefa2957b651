// Expands vectors.json into a flat list of cases {name, op, input, options}, op being
// "encode", "decode" or "detect". Shared by every test that compares front ends.

import { readFileSync } from "node:fs";

const file = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8"));

export function vectors() {
  const cases = [];
  const add = (op, input, options) =>
    cases.push({ name: `${op} ${JSON.stringify(input).slice(0, 40)} ${JSON.stringify(options)}`, op, input, options });
  for (const set of file.sets) {
    add("encode", file.set_text, { set });
    add("encode", file.set_text, { set, space_plus: true, lowercase: true });
  }
  return { cases, file, add };
}

/** Every case: the sets, the explicit cases, and per charset an encode, a decode of
 * that encoding in the charset and with auto-detection, and a detect. `encodeWith`
 * produces the percent-encoded text to decode (the reference implementation's). */
export function expand(encodeWith) {
  const { cases, add } = vectors();
  for (const c of file.cases) add(c.op, c.input, c.options);
  for (const [charset, text] of file.charset_texts) {
    add("encode", text, { charset });
    add("encode", text, { charset, set: "form" });
    const encoded = encodeWith(text, { charset });
    add("decode", encoded, { charset });
    add("decode", encoded, { charset: "auto" });
    add("decode", encoded + "%zz%FF", { charset });
    add("detect", encoded, {});
  }
  return cases;
}
