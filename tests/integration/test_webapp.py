"""The installable app: the manifest and its icons, the service worker, the offline page."""

import json
import re
import struct

from scorekeeper.scoring import TeamRound
from scorekeeper.web import passcode

from ..helpers import text


def png_size(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_names_the_app_its_icons_and_colours(client):
    response = client.get("/manifest.webmanifest")
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["name"] and manifest["short_name"] == "Scorekeeper"
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == ("/", "/", "standalone")
    assert manifest["theme_color"] == "#ffffff" and manifest["background_color"] == "#fbfaf7"
    dark = manifest["user_preferences"]["color_scheme"]["dark"]
    assert dark == {"theme_color": "#292524", "background_color": "#1c1917"}
    sizes = {}
    for icon in manifest["icons"]:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200 and image.mimetype == icon["type"], icon
            if icon["type"] == "image/png":
                width, height = png_size(image.data)
                assert icon["sizes"] == f"{width}x{height}", icon
                sizes[(width, icon["purpose"])] = icon["src"]
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= set(sizes)


def test_pages_link_the_manifest_the_icons_and_the_theme_colours(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<meta name="theme-color" content="#ffffff" media="(prefers-color-scheme: light)">' in page
    assert '<meta name="theme-color" content="#292524" media="(prefers-color-scheme: dark)">' in page
    touch_icon = r'<link rel="apple-touch-icon" href="/static/apple-touch-icon.png\?v=[0-9a-f]{12}">'
    assert re.search(touch_icon, page)
    with client.get("/static/apple-touch-icon.png") as icon:
        assert png_size(icon.data) == (180, 180)


def test_the_service_worker_caches_static_files_only(client):
    response = client.get("/sw.js")
    assert response.mimetype == "text/javascript" and response.headers["Cache-Control"] == "no-cache"
    script = response.get_data(as_text=True)
    precache = json.loads(script.split("var PRECACHE = ", 1)[1].split(";", 1)[0])
    assert precache[0] == "/offline"
    assert all(url.startswith("/static/") for url in precache[1:])
    for url in precache:
        with client.get(url) as cached:
            assert cached.status_code == 200, url
    assert 'var STATIC = "/static/";' in script
    # pages: from the network always, the offline page when it fails; never put in the cache
    assert script.count("cache.put(") == 1 and "if (url.pathname.indexOf(STATIC) !== 0) return;" in script
    # a change to a cached file gives the worker a new cache name, so phones pick it up
    assert 'var CACHE = "scorekeeper-' in script and client.get("/sw.js").get_data(as_text=True) == script


def test_the_offline_page_is_friendly_and_holds_nothing_of_the_familys(client, make_game):
    make_game("roth", [[TeamRound(melded_points=300), TeamRound(melded_points=150)]])
    response = client.get("/offline")
    page = text(response)
    assert response.status_code == 200 and "Can't reach Scorekeeper" in page
    assert "make run" in page and "Try again" in page
    assert "Ann" not in page and "<form" not in page


def test_the_shell_opens_without_the_passcode_and_keeps_flashes_for_the_page(app, client):
    passcode.set_passcode(app.instance_path, "Marmalade-42")
    for url in ("/manifest.webmanifest", "/sw.js", "/offline", "/static/icon-512.png"):
        with client.get(url) as response:
            assert response.status_code == 200, url
    # the offline page (fetched by the worker in the background) never takes a flash meant for a page
    with client.session_transaction() as session:
        session["_flashes"] = [("info", "For the next page")]
    client.get("/offline")
    with client.session_transaction() as session:
        assert session["_flashes"] == [("info", "For the next page")]


def test_the_game_and_round_screens_ask_to_keep_the_screen_awake(client, make_game):
    game = make_game("roth", [[TeamRound(melded_points=300), TeamRound(melded_points=150)]])
    awake = ("/games/{}", "/games/{}/rounds/new", "/games/{}/rounds/1/edit")
    for url in awake:
        assert "<body data-keep-awake>" in client.get(url.format(game.id)).get_data(as_text=True), url
    for url in ("/", "/rules", f"/games/{game.id}/end"):
        assert "<body>" in client.get(url).get_data(as_text=True), url
