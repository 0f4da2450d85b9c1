"""Compressed pages and static files fetched once: real requests through the app."""

import gzip
import re
import shutil

import brotli
import pytest
from flask import url_for

from scorekeeper.scoring import RULESETS, TeamRound


@pytest.fixture
def game(make_game):
    return make_game("tablet", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]])


def without_tokens(page):
    return re.sub(rb'(name="csrf_token" type="hidden" value=")[^"]*', rb"\1", page)


def decompress(response):
    encoding = response.headers.get("Content-Encoding")
    data = response.get_data()
    if encoding == "br":
        return brotli.decompress(data)
    if encoding == "gzip":
        return gzip.decompress(data)
    assert encoding is None, encoding
    return data


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_pages_css_and_js_are_compressed_and_decompress_to_the_same_bytes(client, game, encoding):
    for url in ("/", f"/games/{game.id}", "/rules", "/history", "/static/style.css", "/static/app.js"):
        plain = client.get(url)
        compressed = client.get(url, headers={"Accept-Encoding": encoding})
        assert plain.status_code == compressed.status_code == 200, url
        assert "Content-Encoding" not in plain.headers
        assert compressed.headers["Content-Encoding"] == encoding, url
        assert "Accept-Encoding" in compressed.headers["Vary"]
        assert len(compressed.get_data()) < len(plain.get_data()) / 2, url
        # the same page, but for its CSRF tokens: signed with the second they were made in
        assert without_tokens(decompress(compressed)) == without_tokens(plain.get_data()), url


def test_css_and_js_are_sent_minified_and_still_whole(app, client):
    for name, keep in (
        ("style.css", "@media"),
        ("app.js", "addEventListener"),
        ("sheet.css", "counter(pages)"),
    ):
        with open(f"{app.static_folder}/{name}", encoding="utf-8") as file:
            source = file.read()
        with client.get(f"/static/{name}") as response:
            sent = response.get_data(as_text=True)
        assert len(sent) < len(source) * 0.9, name
        assert "/*" not in sent and "\n  " not in sent and keep in sent, name
        assert response.headers["Content-Length"] == str(len(response.get_data())), name


def test_a_pdf_is_not_compressed_again(client, game):
    response = client.get(f"/games/{game.id}/sheet.pdf", headers={"Accept-Encoding": "gzip, br"})
    assert "Content-Encoding" not in response.headers and response.data.startswith(b"%PDF")


def test_pages_link_static_files_by_version_and_those_are_kept_a_year(client, game):
    page = client.get(f"/games/{game.id}/rounds/new").get_data(as_text=True)
    for name in ("style.css", "app.js", "icon.svg"):
        assert f"/static/{name}?v=" in page, name
    url = page.split('href="/static/style.css?v=')[1].split('"')[0]
    with client.get(f"/static/style.css?v={url}") as response:
        control = response.headers["Cache-Control"]
    assert "max-age=31536000" in control and "immutable" in control and "public" in control
    # the bare name (and any stale version) is still served, revalidated as before
    for stale in ("/static/style.css", "/static/style.css?v=000000000000"):
        with client.get(stale) as response:
            assert response.status_code == 200
            assert "immutable" not in response.headers.get("Cache-Control", "")


def test_a_changed_static_file_gets_a_new_url(app, client, tmp_path):
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static)
    app.static_folder = str(static)

    def current():
        with app.test_request_context():
            return url_for("static", filename="app.js")

    before = current()
    assert before.startswith("/static/app.js?v=")
    assert current() == before  # the same file, the same URL
    (static / "app.js").write_text((static / "app.js").read_text() + "\nwindow.changed = 1;\n")
    after = current()
    assert after != before and after.startswith("/static/app.js?v=")
    with client.get(after) as response:
        assert "immutable" in response.headers["Cache-Control"]
        assert "window.changed=1" in response.get_data(as_text=True).replace(" ", "")
    with client.get(before) as response:  # the old version's URL is no longer kept a year
        assert "immutable" not in response.headers.get("Cache-Control", "")


def test_sheets_link_their_stylesheet_by_version(client, make_game):
    game = make_game("roth", [[TeamRound(melded_points=100), TeamRound()]])
    page = client.get(f"/games/{game.id}/sheet").get_data(as_text=True)
    assert "/static/sheet.css?v=" in page
    assert RULESETS["roth"].name in page
