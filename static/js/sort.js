// Sortable tables: a header cell with data-sort="text" or "number" becomes a button.
(function () {
  "use strict";
  var tables = document.querySelectorAll("table.sortable");
  Array.prototype.forEach.call(tables, function (table) {
    var headers = table.querySelectorAll("th[data-sort]");
    Array.prototype.forEach.call(headers, function (th) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      button.textContent = th.textContent;
      th.textContent = "";
      th.appendChild(button);
      button.addEventListener("click", function () {
        var column = Array.prototype.indexOf.call(th.parentNode.children, th);
        var numeric = th.getAttribute("data-sort") === "number";
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (other) { other.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[column].textContent.trim();
          var y = b.cells[column].textContent.trim();
          // numbers are written with thousands separators ("1,234")
          var order = numeric ? Number(x.replace(/,/g, "")) - Number(y.replace(/,/g, "")) : x.localeCompare(y, undefined, { sensitivity: "base" });
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
