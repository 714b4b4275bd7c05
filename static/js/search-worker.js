// Search Web Worker: loads the index files and runs queries off the page's main thread,
// so typing never waits for a download, a JSON parse or a query (see search-engine.js).
/* global PapershelfSearch */
importScripts("../vendor/lunr.min.js", "search-engine.js");

(function () {
  "use strict";
  function fetchJSON(url) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(url + ": HTTP " + response.status);
      return response.json();
    });
  }
  var service = new PapershelfSearch.Service(function (message) { self.postMessage(message); }, fetchJSON);
  self.onmessage = function (event) { service.handle(event.data); };
})();
