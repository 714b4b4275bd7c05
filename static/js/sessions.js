// Sessions (issue 34): the site says which sessions are upcoming as of the day it was built;
// this moves each session to where the visitor's clock puts it. A session is upcoming until
// the end of its day in the site's time zone (data-until, an instant in UTC). On sessions/:
// upcoming soonest first, then the past by year, newest first; on the home page: the next
// session, else the last one.
(function () {
  "use strict";
  var now = Date.now();

  function until(item) { return Date.parse(item.getAttribute("data-until")); }
  function upcoming(item) { return now < until(item); }
  function items(root) { return Array.prototype.slice.call(root.querySelectorAll(".session-item")); }

  // A session's title is a heading one level below its list's: h3 under "Upcoming", h4 under a year.
  function setLevel(item, level) {
    var heading = item.querySelector(".session-title");
    if (!heading || heading.tagName === "H" + level) return;
    var replacement = document.createElement("h" + level);
    replacement.className = heading.className;
    while (heading.firstChild) replacement.appendChild(heading.firstChild);
    heading.parentNode.replaceChild(replacement, heading);
  }

  function sessionsPage(upSection, pastSection) {
    var all = items(upSection).concat(items(pastSection));
    var misplaced = all.some(function (item) { return upcoming(item) !== upSection.contains(item); });
    if (!misplaced) return;
    var soon = all.filter(upcoming).sort(function (a, b) { return until(a) - until(b); });
    var done = all.filter(function (item) { return !upcoming(item); }).sort(function (a, b) { return until(b) - until(a); });
    var list = upSection.querySelector(".session-list");
    soon.forEach(function (item) { setLevel(item, 3); list.appendChild(item); });
    upSection.querySelector(".session-none").hidden = soon.length > 0;
    Array.prototype.forEach.call(pastSection.querySelectorAll(".session-year"), function (year) { year.remove(); });
    var none = pastSection.querySelector(".session-none"), current = null, group = null;
    done.forEach(function (item) {
      var year = item.getAttribute("data-year");
      if (year !== current) {
        current = year;
        var section = document.createElement("section");
        section.className = "session-year";
        section.setAttribute("data-year", year);
        section.setAttribute("aria-labelledby", "sessions-" + year);
        var heading = document.createElement("h3");
        heading.id = "sessions-" + year;
        heading.textContent = year;
        group = document.createElement("ol");
        group.className = "session-list";
        section.appendChild(heading);
        section.appendChild(group);
        pastSection.insertBefore(section, none);
      }
      setLevel(item, 4);
      group.appendChild(item);
    });
    none.hidden = done.length > 0;
  }

  function homePage(section) {
    var all = items(section); // the last past session, then the next few, by date
    if (!all.length) return;
    var shown = all.filter(upcoming)[0] || all[all.length - 1];
    all.forEach(function (item) { item.hidden = item !== shown; });
    var heading = section.querySelector("h2");
    heading.textContent = heading.getAttribute(upcoming(shown) ? "data-next" : "data-last");
  }

  var up = document.querySelector('[data-sessions="upcoming"]');
  var past = document.querySelector('[data-sessions="past"]');
  if (up && past) sessionsPage(up, past);
  var home = document.querySelector('[data-sessions="home"]');
  if (home) homePage(home);
})();
