// CPU time of the search worker's answer to every keystroke, run under Node on a built site
// (the same static/js/search-engine.js as in the page; no browser, no rendering).
//
//   node bench/search/engine_time.js SITE_DIR ["query" ...]
//
// SITE_DIR is a built site (e.g. /tmp/papershelf-search-bench/site-10000-0 after
// bench/search/transfer.py). Every prefix of each query is answered three times.
"use strict";
const fs = require("fs");
const path = require("path");
const PS = require(path.join(__dirname, "..", "..", "static", "js", "search-engine.js"));

const root = process.argv[2];
if (!root) {
  console.error("usage: node bench/search/engine_time.js SITE_DIR [query ...]");
  process.exit(2);
}
const queries = process.argv.length > 3 ? process.argv.slice(3)
  : ["graph neural network", "diffusion models for protein design", "reinforcment learning", "experim", "yamamoto kenji"];

function fetchJSON(url) {
  const rel = url.replace(/^\//, "").split("?")[0];
  return Promise.resolve(JSON.parse(fs.readFileSync(path.join(root, rel), "utf8")));
}
function cpuMs() { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }
function percentile(sorted, q) { return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]; }

// Every query's files are fetched once (round 0); rounds 1 and 2 answer from memory, as
// the worker does once a query's parts are loaded; the third round's CPU times are reported.
// An answer is complete when the service posts it (all of its files loaded).
let answered = null;
const service = new PS.Service(function (m) { if (m.type === "results" && answered) answered(m); }, fetchJSON);
function ask(message) {
  return new Promise(function (resolve) { answered = resolve; service.answer(message); });
}
const started = cpuMs();
service.load("/").then(async function () {
  console.log("load: " + (cpuMs() - started).toFixed(0) + " ms CPU for " + service.meta.count + " papers");
  const times = [];
  for (let round = 0; round < 3; round++) {
    for (const q of queries) {
      for (let i = 1; i <= q.length; i++) {
        const t0 = cpuMs();
        await ask({ id: i, q: q.slice(0, i), limit: 10, filters: {} });
        if (round === 2) times.push([cpuMs() - t0, q.slice(0, i)]);
      }
    }
  }
  const sorted = times.map(function (t) { return t[0]; }).sort(function (a, b) { return a - b; });
  console.log("answers: " + sorted.length + ", CPU median " + percentile(sorted, 0.5).toFixed(1) + " ms, p95 " +
    percentile(sorted, 0.95).toFixed(1) + " ms, max " + sorted[sorted.length - 1].toFixed(1) + " ms");
  times.sort(function (a, b) { return b[0] - a[0]; });
  console.log("slowest: " + times.slice(0, 5).map(function (t) { return JSON.stringify(t[1]) + " " + t[0].toFixed(1); }).join(", "));
});
