// Scorekeeper's service worker (served at /sw.js by views/webapp.py).
// - Static files (CSS, JS, icons) come from its cache at once and are
//   refreshed from the app in the background.
// - Pages are never cached: their forms carry CSRF tokens that go stale, and
//   the scores change. When the app cannot be reached, a page asked for gets
//   the friendly offline page instead of the browser's error.
"use strict";

var CACHE = {{ cache|tojson }};
var OFFLINE = {{ offline|tojson }};
var PRECACHE = {{ precache|tojson }};
var STATIC = {{ static|tojson }};

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(CACHE)
      .then(function (cache) { return cache.addAll(PRECACHE); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (keys) {
        return Promise.all(keys.filter(function (key) {
          return key.indexOf("scorekeeper-") === 0 && key !== CACHE;
        }).map(function (key) { return caches.delete(key); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(function () { return caches.match(OFFLINE); }));
    return;
  }
  if (url.pathname.indexOf(STATIC) !== 0) return;
  event.respondWith(caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (cached) {
      var fresh = fetch(request).then(function (response) {
        if (response.ok) return cache.put(request, response.clone()).then(function () { return response; });
        return response;
      });
      if (!cached) return fresh;
      event.waitUntil(fresh.catch(function () {}));
      return cached;
    });
  }));
});
