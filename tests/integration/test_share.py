"""Following a game from another phone: a share link shows its one game, read-only,
and nothing else; it answers 304 until the game changes; stopping it (or making
a new one) is a change to the game, and the old link stops working."""

import re
from html.parser import HTMLParser

import pytest

from scorekeeper.scoring import TeamRound
from scorekeeper.services import Conflict, game_model, games
from scorekeeper.views.share import qr_svg
from scorekeeper.web import passcode
from scorekeeper.web.formatting import books
from scorekeeper.web.language import LANGUAGES
from scorekeeper.web.security import machine_names

from ..helpers import csrf_token, text

ROUND = [TeamRound(melded_points=300, books={"clean": 1}), TeamRound(melded_points=150)]


@pytest.fixture
def game(make_game):
    return make_game("roth", [ROUND], teams=(("Reds", ["Ann", "Bo"]), ("Blues", ["Cy", "Di"])))


@pytest.fixture
def other_game(make_game):
    return make_game("tablet", [ROUND], teams=(("Greens", ["Eve"]), ("Golds", ["Fay"])))


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.forms, self.inputs = [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("a", "link", "script", "img") and (a.get("href") or a.get("src")):
            self.links.append(a.get("href") or a.get("src"))
        self.forms += tag == "form"
        self.inputs += tag in ("input", "button", "select", "textarea")


def links_of(page):
    parser = _Links()
    parser.feed(page)
    return parser


def test_every_game_has_a_share_link_of_its_own(game, other_game):
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", game.share_token)
    assert game.share_token != other_game.share_token


def test_a_share_link_shows_its_one_game_read_only_and_nothing_else(app, client, game, other_game):
    passcode.set_passcode(app.instance_path, "Marmalade-42")  # it opens without the passcode
    response = client.get(f"/s/{game.share_token}")
    assert response.status_code == 200
    page = text(response)
    # the standings, the meld minimums for the next round, the rounds
    s = game.standings
    assert "Reds" in page and "Blues" in page
    for total in s.totals:
        assert f"{total:,}" in page
    for minimum in s.next_meld_minimums:
        assert f"Meld minimum: <strong>{minimum:,}</strong>" in page
    assert "Round 2 next" in page and 'id="round-1"' in page
    # nothing else: no other game, no players, no way to change or take anything (the
    # page's own link set aside: a random token may hold "Cy" or "Bo", as one run found)
    words = page.replace(game.share_token, "<this link>")
    for elsewhere in ("Greens", "Golds", "Eve", "Ann", "Bo", "Cy", "Di", other_game.share_token):
        assert elsewhere not in words, elsewhere
    found = links_of(page)
    assert found.forms == 0 and found.inputs == 0
    allowed = {f"/s/{game.share_token}", "/manifest.webmanifest"}
    # and a guest's own language, back to this page (its cookie alone)
    languages = {f"/language/{code}?next=/s/{game.share_token}" for code in LANGUAGES}
    assert all(link.startswith("/static/") or link in allowed | languages for link in found.links), (
        found.links
    )
    assert "/games/" not in page and "export" not in page and "/players" not in page


def test_a_share_link_answers_304_until_the_game_changes(client, db, game):
    url = f"/s/{game.share_token}"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    assert f'data-etag="{etag.strip(chr(34))}"' in first.get_data(as_text=True)
    unchanged = client.get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.data == b"" and unchanged.headers["ETag"] == etag

    games.add_round(db, game.id, game.revision, 2, ROUND)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert 'id="round-2"' in text(changed) and "Round 3 next" in text(changed)


def test_the_share_view_says_what_the_next_round_asks_as_the_game_page_does(client, make_game):
    # the same words from the same template: books to go out and a first meld in books
    game = make_game("partnership", [ROUND], teams=(("Reds", ["Ann", "Bo"]), ("Blues", ["Cy", "Di"])))
    s = game.standings
    assert s.next_books_to_go_out and s.next_first_meld_books
    shared = text(client.get(f"/s/{game.share_token}"))
    own = text(client.get(f"/games/{game.id}"))
    for page in (shared, own):
        assert f"Going out takes <strong>{books(s.next_books_to_go_out)}</strong>." in page
        assert f"The first meld must hold <strong>{books(s.next_first_meld_books)}</strong>." in page
        assert "books books" not in page


def test_unknown_links_are_a_plain_not_found(client, game):
    for token in ("nope", game.share_token[:-1], "x" * 500, game.share_token + "x"):
        response = client.get(f"/s/{token}")
        assert response.status_code == 404
        assert "This link no longer works" in text(response) and "Reds" not in text(response)


def post_button(client, game_id, url):
    page = client.get(f"/games/{game_id}")
    revision = re.search(r'name="revision" type="hidden" value="(\d+)"', page.get_data(as_text=True))[1]
    return client.post(
        url, data={"csrf_token": csrf_token(client, f"/games/{game_id}"), "revision": revision}
    )


def test_stopping_sharing_turns_the_link_off_and_a_new_link_replaces_it(client, db, game):
    old = f"/s/{game.share_token}"
    response = post_button(client, game.id, f"/games/{game.id}/share/stop")
    assert response.status_code == 303 and response.headers["Location"] == f"/games/{game.id}#share"
    assert client.get(old).status_code == 404
    stopped = game_model.load_game(db, game.id, changes=True)
    assert stopped.share_token is None and stopped.revision == game.revision + 1
    assert stopped.changes[0].summary == "Sharing stopped: the share link no longer works."
    page = text(client.get(f"/games/{game.id}"))
    assert "Sharing is off" in page and "Share this game" in page
    assert client.get(f"/games/{game.id}/share.svg").status_code == 404

    response = post_button(client, game.id, f"/games/{game.id}/share/new")
    assert response.status_code == 303
    shared = game_model.load_game(db, game.id)
    assert shared.share_token not in (None, game.share_token)
    assert client.get(old).status_code == 404
    assert client.get(f"/s/{shared.share_token}").status_code == 200

    # a new link while one is shared: the old one stops
    post_button(client, game.id, f"/games/{game.id}/share/new")
    newest = game_model.load_game(db, game.id, changes=True)
    assert client.get(f"/s/{shared.share_token}").status_code == 404
    assert client.get(f"/s/{newest.share_token}").status_code == 200
    assert newest.changes[0].summary == "New share link made: the old one no longer works."


def test_a_share_change_is_checked_against_the_revision_the_phone_saw(client, db, game):
    stale = client.get(f"/games/{game.id}")
    revision = re.search(r'name="revision" type="hidden" value="(\d+)"', stale.get_data(as_text=True))[1]
    games.add_round(db, game.id, game.revision, 2, ROUND)  # on another phone, meanwhile
    response = client.post(
        f"/games/{game.id}/share/stop",
        data={"csrf_token": csrf_token(client, f"/games/{game.id}"), "revision": revision},
    )
    assert response.status_code == 303
    page = text(client.get(f"/games/{game.id}"))
    assert "Someone changed this game on another phone" in page and "Meanwhile: Round 2 entered." in page
    assert client.get(f"/s/{game.share_token}").status_code == 200  # nothing was changed
    with pytest.raises(Conflict):
        games.stop_sharing(db, game.id, game.revision)
    # a button without its CSRF token (expired, or from elsewhere) changes nothing either
    response = client.post(f"/games/{game.id}/share/stop", data={"revision": revision})
    assert response.status_code == 400 and "nothing was saved" in text(response)
    assert client.get(f"/s/{game.share_token}").status_code == 200


def test_stopping_a_game_that_is_not_shared_changes_nothing(db, game):
    stopped = games.stop_sharing(db, game.id, game.revision)
    again = games.stop_sharing(db, game.id, stopped.revision)
    assert again.revision == stopped.revision


def test_the_game_screen_shows_the_link_and_its_qr_code(client, game):
    page = text(client.get(f"/games/{game.id}"))
    (link,) = re.findall(r'<p class="share-link"><a href="([^"]+)">', page)
    assert link.endswith(f"/s/{game.share_token}")
    # opened on the computer itself, the link names its LAN address, which phones reach
    addresses = machine_names()[0]
    assert link.startswith(f"http://{addresses[0]}/" if addresses else "http://localhost/")
    svg = client.get(f"/games/{game.id}/share.svg")
    assert svg.mimetype == "image/svg+xml" and svg.data.startswith(b"<svg")
    assert svg.data == qr_svg(link)  # the code is the link shown, as segno draws it
    assert b"style=" not in svg.data and b"<script" not in svg.data
    # opened at a LAN address, the link keeps it
    page = text(client.get(f"/games/{game.id}", headers={"Host": "127.0.0.1:5000"}))
    if not addresses:
        assert f'href="http://127.0.0.1:5000/s/{game.share_token}"' in page
    else:
        assert f'href="http://{addresses[0]}:5000/s/{game.share_token}"' in page


def test_games_from_before_share_links_get_one(tmp_path):
    from sqlite_utils import Database

    from scorekeeper.services.schema import migrate
    from scorekeeper.storage.migrations import migrations

    path = tmp_path / "old.db"
    db = Database(path)
    migrations.apply(db, stop_before="m009_share_links")
    for _ in range(2):
        db["games"].insert({"rules": "{}", "rules_name": "x", "created_at": "x", "updated_at": "x", "uid": _})
    db.close()
    assert migrate(path)[:2] == ["m009_share_links", "m010_ratings_streaks_records"]
    tokens = [row["share_token"] for row in Database(path).query("SELECT share_token FROM games")]
    assert len(set(tokens)) == 2 and all(re.fullmatch(r"[A-Za-z0-9_-]{22}", t) for t in tokens)
