// The Cite section of a paper page: "Copy" buttons for the formatted references (APA,
// Chicago, ACL) and the BibTeX and RIS blocks. The buttons are in the page, hidden; they are
// shown only when this script runs. A formatted reference is copied as plain text and as
// HTML, so that a word processor keeps its italics; BibTeX and RIS as plain text.
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
    function copied() { say(status, "Copied."); }
    function writeText() {
      navigator.clipboard.writeText(text).then(copied, fallback);
    }
    var clipboard = navigator.clipboard;
    if (!clipboard || typeof clipboard.writeText !== "function" || !window.isSecureContext) {
      fallback();
    } else if (target.tagName !== "PRE" && typeof clipboard.write === "function" &&
               typeof window.ClipboardItem === "function") {
      var item;
      try {
        item = new window.ClipboardItem({
          "text/plain": new Blob([text], { type: "text/plain" }),
          "text/html": new Blob([target.innerHTML], { type: "text/html" })
        });
      } catch (e) {
        writeText();
        return;
      }
      clipboard.write([item]).then(copied, writeText);
    } else {
      writeText();
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
