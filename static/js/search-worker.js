// Search Web Worker: loads the index files and runs queries off the page's main thread,
// so typing never waits for a download, a JSON parse or a query (see search-engine.js).
/* global PapershelfSearch */
importScripts("../vendor/lunr.min.js", "search-engine.js");

(function () {
  "use strict";
  var service = new PapershelfSearch.Service(function (message) { self.postMessage(message); }, PapershelfSearch.fetchJSON);
  self.onmessage = function (event) { service.handle(event.data); };
})();
