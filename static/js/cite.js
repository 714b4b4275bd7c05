// The Cite section of a paper page: "Copy" buttons for the formatted references (APA,
// Chicago, ACL) and the BibTeX and RIS blocks, and "Download" buttons that save BibTeX and
// RIS as files (made here from the page's own text: the site writes no file per paper).
// The page marks each text (data-copy, data-download); the buttons are made only when this
// script runs. A formatted reference is copied as plain text and as
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

  // A file with `text`, offered for download as `name` (RIS wants CRLF line ends).
  function download(name, text) {
    if (/\.ris$/.test(name)) text = text.replace(/\r?\n/g, "\r\n");
    var type = /\.ris$/.test(name) ? "application/x-research-info-systems" : "application/x-bibtex";
    var url = URL.createObjectURL(new Blob([text], { type: type + ";charset=utf-8" }));
    var link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    window.setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
  }

  function button(label, className) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = className;
    b.textContent = label;
    return b;
  }

  // Under each text to copy: its Copy button, a Download button for a file (BibTeX, RIS),
  // and the status that says what happened.
  var targets = document.querySelectorAll(".cite [data-copy][id]");
  Array.prototype.forEach.call(targets, function (target) {
    var actions = document.createElement("p");
    actions.className = "cite-actions";
    var copyButton = button("Copy " + target.getAttribute("data-copy"), "copy-button");
    copyButton.setAttribute("data-copy-target", target.id);
    copyButton.addEventListener("click", function () { copy(copyButton); });
    actions.appendChild(copyButton);
    var name = target.getAttribute("data-download");
    if (name) {
      var save = button("Download ." + name.split(".").pop(), "button-link");
      save.addEventListener("click", function () { download(name, target.textContent || ""); });
      actions.appendChild(document.createTextNode(" "));
      actions.appendChild(save);
    }
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    actions.appendChild(document.createTextNode(" "));
    actions.appendChild(status);
    target.parentNode.insertBefore(actions, target.nextSibling);
  });
})();
