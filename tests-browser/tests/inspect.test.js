// The inspector: the URL's parts in the order a URL reads, the query as a table of pairs,
// the URL drawn with its parts marked, warnings that read on a phone, and editing through
// `POST /api/inspect` ({url, set, clear, append_query, trim_query, sort_query}). Where the
// server does not edit yet, editing is tried against a stand-in that answers by that
// contract, and the page is shown to say so and carry on with the real server.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { LOOKS, openPage, shots, startAll, stopAll } from "./harness.js";

let server;
let base;
let browser;
const errors = [];
// The real server refusing edits it does not know is one of the cases tried.
const expected = /Failed to load resource: the server responded with a status of 400/;

const READING_ORDER = ["href", "part-scheme", "part-user", "part-password", "part-host", "part-port", "part-path", "part-query", "part-fragment", "origin"];

before(async () => {
  ({ server, base, browser } = await startAll([]));
});

after(() => stopAll({ server, browser }));

async function inspect(page, url) {
  await page.getByLabel("URL", { exact: true }).fill(url);
  await page.getByRole("button", { name: "Inspect", exact: true }).click();
  await page.locator("#inspect-result table.parts").first().waitFor();
}

const rows = (page) => page.locator("#inspect-result > table.parts > tbody > tr").evaluateAll((trs) => trs.map((tr) => tr.className));

for (const look of ["desktop", "phone-dark"]) {
  test(`the parts read in URL order, the query as pairs, warnings that read on a phone (${look})`, async () => {
    const { context, page } = await openPage(browser, base, LOOKS[look], errors, expected);
    await inspect(page, "http://user:pass@0x7f.1:80/a\\b?utm_source=x&q=%D8%B3%D9%84%D8%A7%D9%85&q=2#frag");
    assert.deepEqual(await rows(page), READING_ORDER);
    const pairs = await page.locator("#inspect-result table.pairs tbody tr").evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td code")].map((c) => c.textContent)));
    assert.deepEqual(pairs, [["utm_source", "x"], ["q", "سلام"], ["q", "2"]]);
    // Each warning reads as a line of text, not a column of letters.
    const warnings = await page.locator("#inspect-result ul.warnings > li").evaluateAll((items) =>
      items.map((li) => ({ code: li.querySelector("code").textContent, width: li.querySelector(".what").getBoundingClientRect().width, height: li.querySelector(".what").getBoundingClientRect().height })),
    );
    const codes = warnings.map((w) => w.code);
    for (const code of ["password-in-url", "explicit-default-port", "non-canonical-ipv4", "backslash-as-slash"]) assert.ok(codes.includes(code), `${code} in ${codes}`);
    for (const w of warnings) assert.ok(w.width > 150 && w.height < 100, `${w.code}: ${w.width}×${w.height}px`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= LOOKS[look].viewport.width, `no horizontal scrolling (${width}px)`);
    await page.locator("#inspect").screenshot({ path: join(shots, `inspect-${look}.png`) });
    await context.close();
  });
}

/** A view as the contract answers it: fields in URL order, spans, pairs, warnings. */
function view(href, parts, spans, pairs) {
  return {
    input: href,
    href,
    scheme: parts.scheme,
    user: parts.user || "",
    password: "",
    host: parts.host,
    host_type: "domain",
    host_unicode: parts.host,
    port: parts.port ?? null,
    default_port: 443,
    path: parts.path,
    path_segments: parts.path.split("/").slice(1),
    path_segments_not_listed: 0,
    query: parts.query ?? null,
    query_pairs: pairs,
    query_pairs_not_listed: 0,
    fragment: parts.fragment ?? null,
    fragment_decoded: parts.fragment ?? null,
    origin: `https://${parts.host}${parts.port ? `:${parts.port}` : ""}`,
    spans,
    diagram: null,
    warnings: [],
    warnings_not_listed: 0,
  };
}

/** Spans of `href` for its parts, found in order. */
function spansOf(href, parts) {
  const spans = [];
  let at = 0;
  for (const component of ["scheme", "user", "host", "port", "path", "query", "fragment"]) {
    const value = parts[component];
    if (!value) continue;
    const start = href.indexOf(value, at);
    spans.push({ component, start, end: start + value.length });
    at = start + value.length;
  }
  return spans;
}

const STAND_IN = {
  "https://ann@example.com:8080/a/b?x=1&y=2#top": { scheme: "https", user: "ann", host: "example.com", port: 8080, path: "/a/b", query: "x=1&y=2", fragment: "top", pairs: [["x", "1"], ["y", "2"]] },
  "https://ann@example.org:8080/a/b?x=1&y=2#top": { scheme: "https", user: "ann", host: "example.org", port: 8080, path: "/a/b", query: "x=1&y=2", fragment: "top", pairs: [["x", "1"], ["y", "2"]] },
  "https://ann@example.org:8080/a/b?y=2#top": { scheme: "https", user: "ann", host: "example.org", port: 8080, path: "/a/b", query: "y=2", fragment: "top", pairs: [["y", "2"]] },
};

/** Answers `POST /api/inspect` by the contract for the URLs above: set host, trim a pair. */
function standIn(request) {
  let href = request.url;
  for (const [component, value] of Object.entries(request.set || {})) {
    if (component === "host") href = href.replace(/@[^:/]+/, `@${value}`);
  }
  for (const name of request.trim_query || []) href = href.replace(new RegExp(`[?&]${name}=[^&#]*`), (m) => (m[0] === "?" ? "?" : "")).replace("?&", "?");
  const parts = STAND_IN[href];
  const spanParts = { ...parts, port: String(parts.port) };
  return { whatwg: view(href, parts, spansOf(href, spanParts), parts.pairs), whatwg_error: null, rfc3986: null, rfc3986_error: { position: 0, component: "url", message: "not asked" }, resolved: null };
}

test("editing by the contract of POST /api/inspect: set a part, remove a pair, see the new URL drawn", async () => {
  for (const look of ["desktop", "phone"]) {
    const { context, page } = await openPage(browser, base, LOOKS[look], errors, expected);
    const sent = [];
    await page.route("**/api/inspect", async (route) => {
      const request = JSON.parse(route.request().postData());
      sent.push(request);
      await route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(standIn(request)) });
    });
    await inspect(page, "https://ann@example.com:8080/a/b?x=1&y=2#top");
    // Drawn: each part over its name, the delimiters between.
    const drawn = await page.locator("#inspect-result .drawn-url > span").evaluateAll((spans) => spans.map((s) => (s.classList.contains("mark") ? [s.querySelector(".text").textContent, s.querySelector(".label").textContent] : s.textContent)));
    assert.deepEqual(drawn, [["https", "scheme"], "://", ["ann", "user"], "@", ["example.com", "host"], ":", ["8080", "port"], ["/a/b", "path"], "?", ["x=1&y=2", "query"], "#", ["top", "fragment"]]);
    assert.deepEqual(await rows(page), READING_ORDER);
    await page.getByLabel("Component").selectOption("host");
    await page.getByLabel("Value", { exact: true }).fill("example.org");
    await page.getByRole("button", { name: "Set", exact: true }).click();
    await page.waitForFunction(() => document.getElementById("url").value === "https://ann@example.org:8080/a/b?x=1&y=2#top");
    assert.deepEqual(sent.at(-1), { url: "https://ann@example.com:8080/a/b?x=1&y=2#top", set: { host: "example.org" } });
    assert.match(await page.locator("#inspect-result > table.parts tr.part-host").textContent(), /example\.org/);
    // Remove a pair from the query table.
    await page.locator("#inspect-result table.pairs tr", { hasText: "x" }).getByRole("button", { name: "Remove" }).click();
    await page.waitForFunction(() => document.getElementById("url").value === "https://ann@example.org:8080/a/b?y=2#top");
    assert.deepEqual(sent.at(-1), { url: "https://ann@example.org:8080/a/b?x=1&y=2#top", trim_query: ["x"] });
    await page.locator("#inspect").screenshot({ path: join(shots, `inspect-edit-${look}.png`) });
    await context.close();
  }
});

test("editing against this server: done when it edits, said plainly when it does not", async () => {
  const { context, page } = await openPage(browser, base, LOOKS.desktop, errors, expected);
  const probe = await page.request.post(base + "/api/inspect", { data: { url: "https://a.example/", set: { host: "b.example" } } });
  const edits = probe.status() === 200;
  await inspect(page, "https://a.example/x?y=1");
  await page.getByLabel("Component").selectOption("host");
  await page.getByLabel("Value", { exact: true }).fill("b.example");
  await page.getByRole("button", { name: "Set", exact: true }).click();
  if (edits) {
    await page.waitForFunction(() => document.getElementById("url").value === "https://b.example/x?y=1");
  } else {
    await page.locator("#inspect-result .note").waitFor();
    assert.match(await page.locator("#inspect-result .note").textContent(), /does not edit URLs yet/);
    assert.equal(await page.locator("#url").inputValue(), "https://a.example/x?y=1");
    assert.match(await page.locator("#inspect-result > table.parts tr.part-host").textContent(), /a\.example/);
  }
  // Without JavaScript too.
  const plain = await openPage(browser, base, { ...LOOKS.desktop, javaScriptEnabled: false }, errors, expected);
  await plain.page.getByLabel("URL", { exact: true }).fill("https://a.example/x?y=1");
  await plain.page.getByLabel("Value", { exact: true }).fill("b.example");
  await Promise.all([plain.page.waitForNavigation(), plain.page.getByRole("button", { name: "Set", exact: true }).click()]);
  const host = await plain.page.locator("#inspect-result > table.parts tr.part-host").textContent();
  if (edits) assert.match(host, /b\.example/);
  else {
    assert.match(await plain.page.locator("#inspect-result .note").textContent(), /does not edit URLs yet/);
    assert.match(host, /a\.example/);
  }
  await plain.context.close();
  await context.close();
});

/** Each parts table's rows as [class, label, cell text], buttons left out, spaces collapsed. */
const partsRows = (page) =>
  page.locator("#inspect-result table.parts").evaluateAll((tables) =>
    tables.map((table) =>
      [...table.tBodies[0].rows].map((tr) => {
        const cell = tr.querySelector("td").cloneNode(true);
        cell.querySelectorAll("button").forEach((b) => b.remove());
        const squash = (text) => text.replace(/\s+/g, " ").trim();
        return [tr.className, squash(tr.querySelector("th").textContent), squash(cell.textContent)];
      }),
    ),
  );

test("the page's script shows the same parts as the server's page, for URLs of every shape", async () => {
  const urls = [
    "https://user:pa%20ss@example.com:8443/a/b%20c?x=1&y=%E2%9C%93#top%20part",
    "http://[2001:db8::7]:8080/p/q?a=b#f",
    "https://例子.卷筒纸/über?q=%D8%B3%D9%84%D8%A7%D9%85#frag",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "mailto:ann@example.com?subject=hi",
    "file:///tmp/x",
  ];
  const { context, page } = await openPage(browser, base, LOOKS.desktop, errors, expected);
  const plain = await openPage(browser, base, { ...LOOKS.desktop, javaScriptEnabled: false }, errors, expected);
  let views = 0;
  for (const url of urls) {
    // The answer is drawn in one go, both views (the generic one in a closed <details>);
    // the last URL's is removed first, so that the tables read are this URL's.
    await page.evaluate(() => document.getElementById("inspect-result").replaceChildren());
    await inspect(page, url);
    const scripted = await partsRows(page);
    await plain.page.getByLabel("URL", { exact: true }).fill(url);
    await Promise.all([plain.page.waitForNavigation(), plain.page.getByRole("button", { name: "Inspect", exact: true }).click()]);
    const served = await partsRows(plain.page);
    assert.deepEqual(scripted, served, url);
    views += served.length;
  }
  // Both views of every URL but the IDN's, which RFC 3986 does not take (it is an IRI).
  assert.equal(views, 2 * urls.length - 1);
  // The rows are the parts, not two empty tables alike: the IDN's host in both forms.
  await page.evaluate(() => document.getElementById("inspect-result").replaceChildren());
  await inspect(page, urls[2]);
  const idn = Object.fromEntries((await partsRows(page))[0].map(([cls, , text]) => [cls, text]));
  assert.match(idn["part-host"], /^xn--fsqu00a\.xn--3lr804guic .*例子\.卷筒纸/);
  assert.match(idn["part-port"], /443/);
  await plain.context.close();
  await context.close();
});

test("no console errors in the inspector", () => {
  assert.deepEqual(errors, []);
});
