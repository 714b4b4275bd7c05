// Runs static/js/search-engine.js under Node for the Python tests (parity and quality).
// Usage: node tests/js/search_runner.js < request.json > answer.json
// request: {"root": "<folder holding search/...>", "queries": [{"q": "...", "filters": {}}],
//           "tokenize": ["text", ...], "stem": ["word", ...], "units": ["query", ...],
//           "titleSlug": ["title", ...], "slugMax": 80 (the slugs records leave out),
//           "fetches": ["query", ...]   (the files the page's service fetches for each query),
//           "lunr": {"index": "<file of a lunr index>", "terms": ["term", ...]}
//                                       (lunr.js's own Index.load and search, term by term)}
"use strict";
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const repo = path.resolve(__dirname, "..", "..");
const lunr = require(path.join(repo, "node_modules", "lunr"));
const PS = require(path.join(repo, "static", "js", "search-engine.js"));

const request = JSON.parse(fs.readFileSync(0, "utf8"));
const answer = {};
let engine = null;
// The site's files as the page fetches them: the numbered ones gzip (outputs/search/stored.py).
function read(rel) {
  const data = fs.readFileSync(path.join(request.root, rel.split("?")[0]));
  return JSON.parse((rel.split("?")[0].endsWith(".gz") ? zlib.gunzipSync(data) : data).toString("utf8"));
}
function exists(rel) { return fs.existsSync(path.join(request.root, rel)); }

function main() {
  if (request.root && (request.queries || request.highlight || request.snippet)) {
    const meta = read("search/meta.json");
    engine = new PS.Engine(meta);
    engine.setFacets(read("search/facets.json"));
    meta.dict.forEach(function (_, n) { engine.addDict(n, read("search/dict/" + n + ".json.gz")); });
    for (let n = 0; exists("search/terms/" + n + ".json.gz"); n++) engine.addTerms(read("search/terms/" + n + ".json.gz"));
    for (let n = 0; exists("search/docs/" + n + ".json.gz"); n++) engine.addDocs(n, read("search/docs/" + n + ".json.gz"));
    answer.queries = (request.queries || []).map(function (item) {
      const result = engine.search(item.q, item.filters || null);
      return {
        q: item.q,
        slugs: result.refs.map(function (r) { return engine.records[r].s; }),
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
  answer.titleSlug = (request.titleSlug || []).map(function (t) { return PS.titleSlug(t, request.slugMax); });
  answer.stopWords = lunr.stopWordFilter ? (request.stopWords || []).map(PS.isStopWord) : [];
  if (request.lunr) {
    const index = lunr.Index.load(JSON.parse(fs.readFileSync(request.lunr.index, "utf8")));
    answer.lunr = request.lunr.terms.map(function (term) {
      return index.query(function (q) { q.term(term, { usePipeline: false }); })
        .map(function (r) { return [r.ref, r.score]; });
    });
  }
  if (request.fetches) return fetches();
  if (request.typed) return typed();
  return Promise.resolve();
}

// Each query on a fresh service, as a page opened at ?q=...: the files it fetched.
function fetches() {
  answer.fetches = [];
  return request.fetches.reduce(function (chain, q) {
    return chain.then(function () {
      const got = [];
      let done;
      const finished = new Promise(function (resolve) { done = resolve; });
      const service = new PS.Service(function (message) {
        if (message.type === "results" || (message.type === "state" && message.state === "error")) done(message);
      }, function (url) {
        const rel = url.slice(1).split("?")[0];
        got.push(rel);
        return new Promise(function (resolve, reject) {
          setImmediate(function () {
            try { resolve(read(rel)); } catch (e) { reject(new Error(rel + ": HTTP 404")); }
          });
        });
      });
      service.handle({ type: "query", id: 1, q: q, limit: 10, filters: {} });
      service.handle({ type: "init", base: "/" });
      return finished.then(function (message) {
        answer.fetches.push({ q: q, files: got, total: message.total, error: message.message || null,
          slugs: (message.hits || []).map(function (h) { return h.slug; }) });
      });
    });
  }, Promise.resolve());
}

// One service, the queries in turn (a query typed letter by letter): every file it fetched.
function typed() {
  const got = [];
  let done = null;
  const service = new PS.Service(function (message) {
    if (done && (message.type === "results" || (message.type === "state" && message.state === "error"))) done(message);
  }, function (url) {
    const rel = url.slice(1).split("?")[0];
    got.push(rel);
    return new Promise(function (resolve, reject) {
      setImmediate(function () { try { resolve(read(rel)); } catch (e) { reject(new Error(rel + ": HTTP 404")); } });
    });
  });
  service.handle({ type: "init", base: "/" });
  return request.typed.reduce(function (chain, q, i) {
    return chain.then(function () {
      const finished = new Promise(function (resolve) { done = resolve; });
      service.handle({ type: "query", id: i + 1, q: q, limit: 10, filters: {} });
      return finished;
    });
  }, new Promise(function (resolve) { setTimeout(resolve, 50); })).then(function () { answer.typed = { files: got }; });
}

main().then(function () { process.stdout.write(JSON.stringify(answer)); });
