// The Cite section of a paper page: "Copy" buttons for the BibTeX and RIS blocks.
// The buttons are in the page, hidden; they are shown only when this script runs.
(function () {
  "use strict";

  function selectText(element) {
    var selection = window.getSelection && window.getSelection();
    if (!selection || !document.createRange) return false;
    var range = document.createRange();
    range.selectNodeContents(element);
    selection.removeAllRanges();
    selection.addRange(range);
    return true;
  }

  function copyBySelection(element) {
    if (!selectText(element)) return false;
    try {
      return document.execCommand("copy");
    } catch (e) {
      return false;
    }
  }

  function say(status, message) {
    if (!status) return;
    status.textContent = "";
    // A fresh text node makes screen readers announce the same message again.
    window.setTimeout(function () { status.textContent = message; }, 50);
  }

  function copy(button) {
    var target = document.getElementById(button.getAttribute("data-copy-target") || "");
    if (!target) return;
    var status = button.parentNode ? button.parentNode.querySelector(".copy-status") : null;
    var text = target.textContent || "";
    function fallback() {
      if (copyBySelection(target)) {
        say(status, "Copied.");
      } else {
        selectText(target);
        say(status, "Selected: press Ctrl+C (⌘C on a Mac) to copy.");
      }
    }
    if (navigator.clipboard && typeof navigator.clipboard.writeText === "function" && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () {
        say(status, "Copied.");
      }, fallback);
    } else {
      fallback();
    }
  }

  var buttons = document.querySelectorAll(".copy-button[data-copy-target]");
  for (var i = 0; i < buttons.length; i++) {
    (function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    })(buttons[i]);
  }
})();
