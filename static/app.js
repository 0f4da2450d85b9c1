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

// The installable app: the service worker keeps the static files and shows a
// friendly page when the app cannot be reached. Browsers allow it only on
// https or on the computer itself (localhost); elsewhere this does nothing.
(function () {
  "use strict";
  var url = document.documentElement.dataset.serviceWorker;
  if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(url).catch(function () {});
})();

// Keep the screen awake on the game and round screens (body[data-keep-awake])
// while cards are counted. The browser lets go of the lock when the page is
// hidden, so it is asked for again when the page is seen again. Where the
// Screen Wake Lock API is missing (or refused), nothing happens.
(function () {
  "use strict";
  if (!document.body.hasAttribute("data-keep-awake") || !("wakeLock" in navigator)) return;
  var lock = null;
  function keepAwake() {
    if (document.visibilityState !== "visible" || (lock && !lock.released)) return;
    navigator.wakeLock.request("screen").then(function (sentinel) { lock = sentinel; }, function () {});
  }
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
})();

// Following a shared game (main[data-follow], templates/share/follow.html):
// ask the app every few seconds whether the game changed, sending the page's
// ETag, so that an unchanged game costs a 304 and no page; a changed one
// replaces the page's content (breakdowns left open stay open); a link that
// was stopped shows so, and the asking stops. Only while the page is seen.
// Without JavaScript, a reload does the same.
(function () {
  "use strict";
  var main = document.querySelector("main[data-follow]");
  if (!main || !window.fetch || !window.DOMParser) return;
  var timer = null;

  function schedule() {
    clearTimeout(timer);
    if (document.visibilityState !== "visible") return;
    timer = setTimeout(check, 1000 * Number(main.dataset.pollSeconds || 5));
  }

  function replace(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.querySelector("main[data-follow]");
    if (!fresh) return;
    main.querySelectorAll("details[open][id]").forEach(function (open) {
      var same = fresh.querySelector("details#" + CSS.escape(open.id));
      if (same) same.open = true;
    });
    main.replaceWith(fresh);
    main = fresh;
    document.title = page.title;
  }

  function check() {
    fetch(location.pathname, { headers: { "If-None-Match": '"' + main.dataset.etag + '"' }, cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status === 200 || response.status === 404) return response.text();
        return null;
      })
      .then(function (html) {
        if (html !== null) replace(html);
        if (!main.hasAttribute("data-gone")) schedule();
      }, schedule);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") check();
    else clearTimeout(timer);
  });
  schedule();
})();
