"""The installable app: its manifest, the service worker at the site root, and the
page that worker shows when the app cannot be reached.

All three open without the passcode (an installed app fetches them on its
own) and hold nothing of the family's: no game, no name, no score.
"""

import hashlib
import json
import os

from flask import Blueprint, Response, current_app, render_template, url_for

bp = Blueprint("webapp", __name__)

# (theme colour: the header's; background colour: the page's) as in static/style.css
LIGHT = ("#ffffff", "#fbfaf7")
DARK = ("#292524", "#1c1917")

# What the service worker keeps from the start, besides the offline page;
# other static files are kept as they are first used.
PRECACHE = ("style.css", "app.js", "icon.svg", "icon-192.png")


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, icons, standalone display, colours."""

    def icon(name, size, purpose="any", kind="image/png"):
        return {"src": url_for("static", filename=name), "sizes": size, "type": kind, "purpose": purpose}

    data = {
        "id": "/",
        "name": "Scorekeeper · Hand and Foot",
        "short_name": "Scorekeeper",
        "description": "Keep score of Hand and Foot at the table, under your family's own rules.",
        "lang": "en",
        "start_url": url_for("home.index"),
        "scope": url_for("home.index"),
        "display": "standalone",
        "theme_color": LIGHT[0],
        "background_color": LIGHT[1],
        # dark colours where the browser reads them (the page's theme-color meta does too)
        "user_preferences": {"color_scheme": {"dark": {"theme_color": DARK[0], "background_color": DARK[1]}}},
        "icons": [
            icon("icon-192.png", "192x192"),
            icon("icon-512.png", "512x512"),
            icon("icon-maskable-512.png", "512x512", "maskable"),
            icon("icon.svg", "any", kind="image/svg+xml"),
        ],
    }
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        mimetype="application/manifest+json",
        headers={"Cache-Control": "no-cache"},
    )


@bp.get("/sw.js")
def service_worker():
    """The service worker: static files cached, pages never; the offline page."""
    precache = [url_for("webapp.offline")] + [url_for("static", filename=name) for name in PRECACHE]
    offline = render_template("webapp/offline.html")
    digest = hashlib.sha256(offline.encode())
    for name in PRECACHE:
        with open(os.path.join(current_app.static_folder, name), "rb") as file:
            digest.update(file.read())
    script = render_template(
        "webapp/sw.js",
        cache=f"scorekeeper-{digest.hexdigest()[:12]}",
        offline=precache[0],
        precache=precache,
        static=url_for("static", filename=""),
    )
    # asked for afresh on every check, so a new version of the app takes over
    return Response(script, mimetype="text/javascript", headers={"Cache-Control": "no-cache"})


@bp.get("/offline")
def offline():
    """What the service worker shows when the app cannot be reached."""
    return render_template("webapp/offline.html")
