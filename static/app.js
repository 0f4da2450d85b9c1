// Small enhancements only: every page works without this file.
// - the − / + steppers change the number in place instead of posting the form;
// - a chip chosen for a count of books moves on to the next field;
// - a number that may be negative gets the numeric keypad and a ± key;
// - what is typed into a round is kept on the phone (drafts), and a round is
//   sent only when the app can be reached: by itself, as soon as it can.
// No scoring happens here: points and totals always come from the server;
// this file only moves, keeps and restores what was typed.
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
})();

// Book counts (templates/_forms.html, book_chips): a chip tapped moves on to
// the next field, so after the last kind of book the keypad opens on "Points
// melded". Only after a tap: arrow keys in the group still choose, as usual.
// A number typed in the box beside the chips takes the place of a chip.
(function () {
  "use strict";
  var tapped = false;
  document.addEventListener("pointerdown", function () { tapped = true; }, true);
  document.addEventListener("keydown", function () { tapped = false; }, true);

  function shown(el) {
    return el.getClientRects().length > 0 && !el.disabled;
  }

  function focusAfter(group) {
    var form = group.closest("form");
    if (!form) return;
    var next = Array.prototype.find.call(form.elements, function (el) {
      return /^(text|radio|checkbox)$/.test(el.type) && !group.contains(el) && shown(el) &&
        (group.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    if (!next) return;
    if (next.type === "radio") {
      next = form.querySelector('input[name="' + CSS.escape(next.name) + '"]:checked') || next;
    }
    next.focus();
  }

  document.addEventListener("change", function (event) {
    var chip = event.target.closest(".chip input");
    if (!chip) return;
    var group = chip.closest(".chips");
    var box = group.querySelector(".chip-more");
    if (box) box.value = "";
    if (tapped) focusAfter(group);
  });
  document.addEventListener("input", function (event) {
    var box = event.target.closest(".chip-more");
    if (!box || !box.value.trim()) return;
    box.closest(".chips").querySelectorAll(".chip input").forEach(function (chip) { chip.checked = false; });
  });
})();

// A number that may be negative (the house rules' values by who went out):
// without this file it is typed on the full keyboard, which has a minus; with
// it, on the numeric keypad, and the ± key beside it changes the sign.
(function () {
  "use strict";
  document.querySelectorAll("button[data-sign]").forEach(function (button) {
    var input = button.parentElement.querySelector("input");
    if (!input) return;
    input.setAttribute("inputmode", "numeric");
    button.hidden = false;
    button.addEventListener("click", function () {
      var value = input.value.trim();
      input.value = /^[-\u2212]/.test(value) ? value.replace(/^[-\u2212]\s*/, "") : "\u2212" + value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
    });
  });
})();

// Drafts: what is typed into a round (form[data-draft]) is kept on this phone
// as it is typed, under the game and the round, so a reload, a locked screen
// or a page the browser dropped loses nothing. Opened again, the round form
// offers it back ("Draft restored", with a button to discard it). The game
// page forgets the draft of the round just saved ([data-draft-done]) and those
// of rounds already played; a draft is forgotten after a week anyway.
// A page that is the app's answer to the form (after Check, − / + or Add up)
// holds what was sent, which becomes the draft; but if more was typed since it
// came (the page reloaded or dropped before anything was sent), that is offered.
(function () {
  "use strict";
  var PREFIX = "scorekeeper-draft:";
  var WEEK = 7 * 24 * 3600 * 1000;
  var storage = null;
  try {
    storage = window.localStorage;
    storage.getItem(PREFIX);
  } catch (error) {
    return; // storage refused (private mode, a policy): the form works as before
  }

  function read(key) {
    try {
      var draft = JSON.parse(storage.getItem(key));
      return draft && typeof draft.values === "object" ? draft : null;
    } catch (error) {
      return null;
    }
  }

  var keys = [];
  for (var i = 0; i < storage.length; i++) {
    if ((storage.key(i) || "").indexOf(PREFIX) === 0) keys.push(storage.key(i));
  }
  keys.forEach(function (key) {
    var draft = read(key);
    if (!draft || !(Date.now() - draft.at < WEEK)) storage.removeItem(key);
  });

  var game = document.querySelector("[data-drafts-of]");
  if (game) {
    if (game.dataset.draftDone) storage.removeItem(PREFIX + game.dataset.draftDone);
    // a round's draft, and a paper sheet's from that round on (templates/paper/sheet.html)
    var played = new RegExp("^" + PREFIX + game.dataset.draftsOf + ":(?:round|paper)-(\\d+)$");
    keys.forEach(function (key) {
      var match = played.exec(key);
      if (match && Number(match[1]) < Number(game.dataset.nextRound)) storage.removeItem(key);
    });
  }

  var form = document.querySelector("form[data-draft]");
  if (!form) return;
  var key = PREFIX + form.dataset.draft;

  function fields() {
    return Array.prototype.filter.call(form.elements, function (el) {
      return el.id && /^(text|radio|checkbox)$/.test(el.type);
    });
  }
  function values() {
    var out = {};
    fields().forEach(function (el) { out[el.id] = el.type === "text" ? el.value : el.checked; });
    return out;
  }
  function apply(wanted) {
    var changed = [];
    fields().forEach(function (el) {
      if (!Object.prototype.hasOwnProperty.call(wanted, el.id)) return;
      var now = el.type === "text" ? el.value : el.checked;
      if (now === wanted[el.id]) return;
      if (el.type === "text") el.value = String(wanted[el.id]);
      else el.checked = Boolean(wanted[el.id]);
      changed.push(el);
    });
    return changed;
  }
  function keep(sent) {
    try {
      storage.setItem(key, JSON.stringify({ at: Date.now(), values: values(), sent: Boolean(sent) }));
    } catch (error) {
      // full: the form still works, only without a draft
    }
  }

  var original = values();
  var draft = read(key);
  var fresh = form.hasAttribute("data-draft-fresh");
  if (draft && (fresh || !draft.sent)) {
    var restored = apply(draft.values);
    if (restored.length) {
      restored.forEach(function (el) {
        var fold = el.closest("details");
        if (fold) fold.open = true;
      });
      var notice = form.querySelector("[data-draft-notice]");
      if (notice) {
        notice.hidden = false;
        notice.querySelector("[data-draft-discard]").addEventListener("click", function () {
          apply(original);
          storage.removeItem(key);
          notice.hidden = true;
        });
      }
    }
  } else if (!fresh) {
    keep();
  }
  form.addEventListener("input", function () { keep(); });
  form.addEventListener("change", function () { keep(); });
  // the form really leaves (not held back for want of the app): its answer is the draft
  document.addEventListener("submit", function (event) {
    if (event.target === form && !event.defaultPrevented) keep(true);
  });
})();

// Typing in a paper sheet (form[data-paper]): Enter on a box goes to the next box,
// down each team's lines, then the next team's and the next round's, as the eye reads
// the sheet; Enter on the last box checks the sheet (the form's first button).
(function () {
  "use strict";
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.isComposing) return;
    var box = event.target;
    if (!box.matches || !box.matches("form[data-paper] input[data-line]")) return;
    var boxes = Array.prototype.slice.call(box.form.querySelectorAll("input[data-line]"));
    var next = boxes[boxes.indexOf(box) + 1];
    if (!next) return;
    event.preventDefault();
    next.focus();
  });
})();

// A round is sent only when the app answers (form[data-probe]): first a small
// request, then the form as usual. With the Wi-Fi gone, the page stays as it
// is and keeps everything typed (the draft too), says that the round will be
// saved (or checked) when the app answers, and keeps asking by itself: again
// after 2, 3, 5 and 8 seconds, then every 10, at once when the phone says it
// is back online or the page is seen again; the first answer sends the form,
// with the last button tapped. The app recognises a save it already has (one
// whose answer never came back) and shows the game: nothing is saved twice.
(function () {
  "use strict";
  var form = document.querySelector("form[data-probe]");
  if (!form || !window.fetch || !form.requestSubmit) return;
  var notice = form.querySelector("[data-offline-notice]");
  var DELAYS = [2, 3, 5, 8, 10];
  var asking = false;
  var waiting = false; // the app did not answer: asking again by itself
  var tries = 0;
  var timer = null;
  var submitter = null;

  function say() {
    if (!notice) return;
    var action = submitter && submitter.name === "action" ? submitter.value : "";
    notice.textContent = action === "save" ? notice.dataset.whenSave
      : action === "check" ? notice.dataset.whenCheck : notice.dataset.whenOther;
    if (submitter && submitter.getClientRects().length) submitter.parentNode.insertBefore(notice, submitter);
    notice.hidden = false;
  }

  function ask() {
    clearTimeout(timer);
    timer = null;
    if (asking) return;
    asking = true;
    fetch(form.dataset.probe, { method: "HEAD", cache: "no-store" }).then(function () {
      asking = false;
      waiting = false;
      tries = 0;
      if (notice) notice.hidden = true;
      form.dataset.reached = "yes";
      form.requestSubmit(submitter || undefined);
    }, function () {
      asking = false;
      waiting = true;
      say();
      timer = setTimeout(ask, 1000 * DELAYS[Math.min(tries, DELAYS.length - 1)]);
      tries += 1;
    });
  }

  form.addEventListener("submit", function (event) {
    if (form.dataset.reached === "yes") {
      delete form.dataset.reached;
      return;
    }
    event.preventDefault();
    // a second tap while the app is asked replaces the first: the last button tapped is sent,
    // as a browser without this file sends the last submission; a tap while waiting asks now
    submitter = event.submitter;
    if (waiting) say();
    ask();
  });
  window.addEventListener("online", function () { if (waiting) ask(); });
  document.addEventListener("visibilitychange", function () {
    if (waiting && document.visibilityState === "visible") ask();
  });
})();

// The game page, shown again by Back or Forward from the browser's memory or
// cache, asks the app whether the game changed since, and reloads if it did.
(function () {
  "use strict";
  var main = document.querySelector("[data-game-revision]");
  if (!main || !window.fetch) return;
  window.addEventListener("pageshow", function (event) {
    var entries = performance.getEntriesByType ? performance.getEntriesByType("navigation") : [];
    var again = event.persisted || (entries[0] && entries[0].type === "back_forward");
    if (!again) return;
    fetch(main.dataset.gameJson, { cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (game) {
        if (game && String(game.revision) !== main.dataset.gameRevision) location.reload();
      }, function () {});
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

// Making a phone secure (templates/trust/index.html): ask the same address over https
// every few seconds while the page is seen; an answer (the phone trusts the household
// certificate) turns the page's status into "Open the secure app". Without JavaScript
// the button is there from the start.
(function () {
  "use strict";
  var check = document.querySelector("[data-trust-check]");
  if (!check || !window.fetch) return;
  var open = check.querySelector("[data-open-secure]");
  var state = check.querySelector(".trust-state");
  var timer = null;
  open.hidden = true;

  function ask() {
    clearTimeout(timer);
    if (document.visibilityState !== "visible") return;
    // no-cors: the answer is not read, only whether https answered (a certificate the
    // phone does not trust is a failed fetch)
    fetch(check.dataset.trustCheck, { mode: "no-cors", cache: "no-store" }).then(function () {
      state.textContent = check.dataset.trustedText;
      open.hidden = false;
      check.classList.add("trusted");
    }, function () {
      timer = setTimeout(ask, 3000);
    });
  }

  document.addEventListener("visibilitychange", ask);
  ask();
})();

// Sharing a link through the phone's own share sheet (Web Share: https only), where a
// page offers one ([data-share-url]); elsewhere the button stays hidden and the link
// is there to copy.
(function () {
  "use strict";
  if (!navigator.share || !window.isSecureContext) return;
  document.querySelectorAll("[data-share-url]").forEach(function (button) {
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.share({ title: document.title, url: button.dataset.shareUrl }).catch(function () {});
    });
  });
})();

// Sharing a result's picture ([data-share-picture], a link to its PNG) through the
// phone's share sheet, where the browser can share files (https); elsewhere, or before
// the picture has come, the link opens the picture to save or send from the photos.
// The picture is fetched as the page opens: the share sheet must open on the tap itself.
(function () {
  "use strict";
  if (!navigator.canShare || !window.isSecureContext) return;
  document.querySelectorAll("[data-share-picture]").forEach(function (link) {
    var file = null;
    fetch(link.href, { credentials: "same-origin" }).then(function (response) {
      // a sign-in page that came instead (a session ended) is no picture to share
      var png = (response.headers.get("Content-Type") || "").indexOf("image/png") === 0;
      return response.ok && !response.redirected && png ? response.blob() : null;
    }).then(function (blob) {
      if (!blob) return;
      var made = new File([blob], link.dataset.sharePicture, { type: "image/png" });
      if (!navigator.canShare({ files: [made] })) return;
      file = made;
      link.setAttribute("data-picture-ready", "");  // a tap now opens the share sheet
    }).catch(function () {});
    link.addEventListener("click", function (event) {
      if (!file) return;
      event.preventDefault();
      navigator.share({ files: [file], title: document.title }).catch(function (error) {
        if (!error || error.name !== "AbortError") window.location.href = link.href;  // the picture itself
      });
    });
  });
})();

// Installing the app (https only): where the browser offers it, a button on the home
// page ([data-install]) asks for it; the browser's own menu does the same elsewhere.
(function () {
  "use strict";
  var button = document.querySelector("[data-install]");
  if (!button) return;
  var offer = null;
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();
    offer = event;
    button.hidden = false;
  });
  button.addEventListener("click", function () {
    if (!offer) return;
    offer.prompt();
    offer = null;
    button.hidden = true;
  });
  window.addEventListener("appinstalled", function () { button.hidden = true; });
})();
