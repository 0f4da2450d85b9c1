// Small enhancements only: every page works without this file.
// - the − / + steppers change the number in place instead of posting the form;
// - a form marked data-remember-scroll comes back where it was after a post
//   (the server's answer, with the review or a message, replaces the page).
// No scoring happens here: points and totals always come from the server.
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-step]");
    if (!button) return;
    var input = button.parentElement.querySelector("input");
    if (!input) return;
    var current = parseInt(input.value, 10);
    if (isNaN(current)) current = 0;
    event.preventDefault();
    input.value = Math.max(0, current + parseInt(button.dataset.step, 10));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  var KEY = "scorekeeper-scroll:" + location.pathname;
  document.addEventListener("submit", function (event) {
    if (!event.target.hasAttribute("data-remember-scroll")) return;
    var submitter = event.submitter;
    // "Check" and "Save" should show the review or the game from the top
    if (submitter && submitter.name === "action" && /^(check|save)$/.test(submitter.value)) {
      sessionStorage.removeItem(KEY);
      return;
    }
    sessionStorage.setItem(KEY, String(window.scrollY));
  });
  window.addEventListener("DOMContentLoaded", function () {
    var saved = sessionStorage.getItem(KEY);
    if (saved === null || !document.querySelector("form[data-remember-scroll]")) return;
    sessionStorage.removeItem(KEY);
    window.scrollTo(0, parseInt(saved, 10));
  });
})();

// Picking a rule set (or its variant) on New game loads its values at once (without
// JavaScript, its "Use these rules" button does; starting also loads them
// first when they differ, so a game never starts under the wrong rules).
document.addEventListener("change", function (event) {
  var load = event.target.form && event.target.form.querySelector("[data-load-rules]");
  if (load && (event.target.name === "rules_key" || event.target.name === "variant")) load.click();
});
