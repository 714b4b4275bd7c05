// Runs static/js/cite.js under Node for tests/outputs/test_citation_styles.py.
// Usage: node tests/js/cite_runner.js < request.json > answer.json
// request: {"refs": [{title, authors: [{family, given, particle, suffix}], container, year,
//            url, place, page, pdf, key}, ...],     -> "formatted": [[{id, text, html}] per ref],
//                                                      "ris": [text per ref]
//           "titleCase": [text], "smartQuotes": [text], "initials": [text],
//           "names": [JSON-LD Person]}             -> the same keys, each answered in order
"use strict";
const fs = require("fs");
const path = require("path");
const Cite = require(path.join(__dirname, "..", "..", "static", "js", "cite.js"));

const request = JSON.parse(fs.readFileSync(0, "utf8"));
const answer = {};
if (request.refs) {
  answer.formatted = request.refs.map((ref) => Cite.format(ref).map((s) => (
    { id: s.id, name: s.name, hint: s.hint, text: Cite.text(s.runs), html: Cite.html(s.runs) })));
  answer.ris = request.refs.map((ref) => Cite.ris(ref));
}
for (const name of ["titleCase", "smartQuotes", "initials"]) {
  if (request[name]) answer[name] = request[name].map((t) => Cite[name](t));
}
if (request.names) answer.names = request.names.map((p) => Cite.nameOf(p));
process.stdout.write(JSON.stringify(answer));
