// Runs static/js/search-engine.js under Node for the Python tests (parity and quality).
// Usage: node tests/js/search_runner.js < request.json > answer.json
// request: {"root": "<folder holding search/...>", "queries": [{"q": "...", "filters": {}}],
//           "tokenize": ["text", ...], "stem": ["word", ...], "units": ["query", ...]}
"use strict";
const fs = require("fs");
const path = require("path");
const repo = path.resolve(__dirname, "..", "..");
const lunr = require(path.join(repo, "node_modules", "lunr"));
const PS = require(path.join(repo, "static", "js", "search-engine.js"));

const request = JSON.parse(fs.readFileSync(0, "utf8"));
const answer = {};
let engine = null;
function read(rel) { return JSON.parse(fs.readFileSync(path.join(request.root, rel.split("?")[0]), "utf8")); }

if (request.root) {
  const meta = read("search/meta.json");
  engine = new PS.Engine(meta);
  for (const spec of meta.parts) engine.addPart(spec, read(spec.index), read(spec.words));
  engine.setDocs(read("search/docs.json"));
  answer.queries = (request.queries || []).map(function (item) {
    const result = engine.search(item.q, item.filters || null);
    return {
      q: item.q,
      slugs: result.refs.map(function (r) { return engine.refs[r]; }),
      scores: result.refs.map(function (r) { return result.scores[r]; }),
      partial: result.partial,
      terms: Array.from(result.terms).sort(),
    };
  });
  answer.highlight = (request.highlight || []).map(function (item) {
    return engine.highlight(item.text, new Set(item.terms));
  });
  answer.snippet = (request.snippet || []).map(function (item) {
    return engine.snippet(item.text, new Set(item.terms), item.size);
  });
}
const fold = request.foldConfig || (engine && engine.meta.fold);
if (fold) {
  const folder = new PS.Folder(fold);
  answer.tokenize = (request.tokenize || []).map(function (t) { return folder.tokenize(t); });
  const settings = request.querySettings || (engine && engine.settings);
  if (settings) answer.units = (request.units || []).map(function (q) { return PS.queryUnits(folder, settings, q); });
}
answer.stem = (request.stem || []).map(PS.stem);
answer.stopWords = lunr.stopWordFilter ? (request.stopWords || []).map(PS.isStopWord) : [];
process.stdout.write(JSON.stringify(answer));
