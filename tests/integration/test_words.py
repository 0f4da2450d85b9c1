"""A game in its own words (issue 23): classic Canasta's pages and sheets speak of
canastas and a hand, Hand and Foot's of books; a house-rules file's ``words`` are
typed in the editor, saved, shown and written back."""

import json
import re
from html.parser import HTMLParser

import pytest

from scorekeeper.scoring import RULESETS, RuleSet

from ..helpers import posted, text
from .test_every_house import start
from .test_games import enter, fields, hidden, page_after
from .test_house_rules import error_of, save
from .test_sheets import pdf, read


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


NEVER_IN_CANASTA = re.compile(r"book|foot", re.I)


class _Visible(HTMLParser):
    """What a person reads on a page: its title and text, labels and hints (no script)."""

    def __init__(self):
        super().__init__()
        self.parts, self._skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "placeholder", "alt", "title") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible(response):
    assert response.status_code == 200, response.status_code
    parser = _Visible()
    parser.feed(response.get_data(as_text=True))
    return " ".join(" ".join(parser.parts).split())


def _a_canasta_game(client):
    """A Canasta game with a round checked (with a warning), saved, and fixed: the
    round form, the check screen, the game page with its change log."""
    game_id = start(client, "canasta", [["Ann", "Bo"], ["Cy", "Di"]])
    url = f"/games/{game_id}/rounds/new"
    form = client.get(url)
    pages = {"round form": visible(form)}
    # Ann & Bo go out without a canasta: the check warns, in Canasta's words
    a = {"melded_points": 120, "red_threes_melded": 1}
    b = {"melded_points": 0, "unplayed_points": 40, "black_threes": 1}
    data = {**fields(a, b, went_out="0"), "revision": hidden(form, "revision")}
    review = page_after(client, url, {**data, "action": "check"})
    pages["check screen"] = visible(review)
    assert (
        "Ann & Bo went out with no canastas, but going out takes 1 canasta of any kind."
        in pages["check screen"]
    )
    enter(client, game_id, {"book_clean": 1, "melded_points": 270}, b, went_out="0")
    enter(
        client,
        game_id,
        {"book_clean": 1, "book_dirty": 1, "melded_points": 470},
        b,
        went_out="0",
        url=f"/games/{game_id}/rounds/1/edit",
    )
    pages["game page"] = visible(client.get(f"/games/{game_id}"))
    return game_id, pages


@pytest.mark.long  # a game's sheet and blank sheet printed on both papers by WeasyPrint: 1.5 to 3 s
def test_classic_canasta_never_says_book_or_foot(client):
    game_id, pages = _a_canasta_game(client)
    form = pages["round form"]
    assert "Natural canastas" in form and "Mixed canastas" in form and "Points left in hand" in form
    assert "going out takes 1 canasta of any kind" in form
    review = pages["check screen"]
    assert "Left in hand" in review
    # the change log names what the fix changed in the game's words
    assert "mixed canastas 0 → 1" in pages["game page"]
    assert "Going out takes 1 canasta of any kind" in pages["game page"]
    pages["rule set page"] = visible(client.get("/rules/canasta"))
    for paper in ("letter", "a4"):
        _, printed = read(pdf(client, f"/games/{game_id}/sheet.pdf?paper={paper}"))
        pages[f"game sheet ({paper})"] = printed
        _, printed = read(pdf(client, f"/rules/canasta/blank.pdf?paper={paper}"))
        pages[f"blank sheet ({paper})"] = printed
    for name, page in pages.items():
        assert not NEVER_IN_CANASTA.findall(page), (name, NEVER_IN_CANASTA.findall(page), page)
    assert "Natural canastas ×1" in pages["game sheet (letter)"]
    assert "Canasta score sheet" in pages["game sheet (a4)"]
    assert "Canasta Scorekeeper" in pages["blank sheet (a4)"]  # the foot of every page
    assert "Natural canastas" in pages["blank sheet (letter)"]
    # the requirement says its noun once (issue 56: "Canastas to go out: 1 canasta of any kind")
    assert "To go out: 1 canasta of any kind." in " ".join(pages["blank sheet (a4)"].split())


def test_exports_label_in_the_games_words_and_keep_their_keys(client):
    game_id, _ = _a_canasta_game(client)
    shown = json.dumps(json.loads(client.get(f"/games/{game_id}.json").get_data(as_text=True)))
    assert '"label": "Natural canastas"' in shown and '"label": "Left in hand"' in shown
    assert not re.search(r'"label": "[^"]*(book|foot)', shown, re.I)
    exported = json.loads(client.get(f"/games/{game_id}/export.json").get_data(as_text=True))
    text = json.dumps(exported, ensure_ascii=False)
    assert '"books": {"clean": 1, "dirty": 1}' in text  # the keys are the file's kinds
    assert '"words": {"game": "Canasta"' in text  # the rules travel with their words
    header = client.get(f"/games/{game_id}/export.csv").get_data(as_text=True).splitlines()[0]
    assert "books_clean" in header and "unplayed_points" in header


def test_hand_and_foot_still_says_book(client):
    game_id = start(client, "tablet", [["Ann", "Bo"], ["Cy", "Di"]])
    form = visible(client.get(f"/games/{game_id}/rounds/new"))
    assert "Clean (red) books" in form and "Points left in hand and foot" in form
    enter(
        client,
        game_id,
        {"book_clean": 2, "book_dirty": 2, "melded_points": 400},
        {"melded_points": 100, "unplayed_points": 40},
        went_out="0",
    )
    game = visible(client.get(f"/games/{game_id}"))
    assert "Going out takes 2 clean + 2 dirty books" in game
    _, printed = read(pdf(client, f"/games/{game_id}/sheet.pdf"))
    assert "Clean (red) books ×2" in printed and "Hand and Foot Scorekeeper" in printed
    _, printed = read(pdf(client, "/rules/tablet/blank.pdf"))
    assert "To go out: 2 clean + 2 dirty books." in " ".join(printed.split())
    assert "Hand and Foot score sheet" in printed


def _editor_data(client, start_from):
    data = posted(client.get(f"/rules/new?from={start_from}"))
    assert "words_game" in data, sorted(data)
    return data


def test_words_are_typed_saved_shown_and_written_back(client):
    data = _editor_data(client, "tablet")
    data |= {
        "name": "Our Hand, Knee and Foot",
        "words_game": "Hand, Knee and Foot",
        "words_piles": "hand, knee, foot",
        "book_clean-called": "clean",
        "book_dirty-called": "dirty",
    }
    key = save(client, data).rsplit("/", 1)[1]
    page = visible(client.get(f"/rules/{key}"))
    assert "Red 3 caught in hand, knee or foot" in page and "Cards left in hand, knee and foot" in page
    written = client.get(f"/rules/{key}.json").get_data(as_text=True)
    words = json.loads(written)["words"]
    assert words == {
        "game": "Hand, Knee and Foot",
        "kinds": {"clean": "clean", "dirty": "dirty"},
        "piles": ["hand", "knee", "foot"],
    }
    assert RuleSet.from_json(written).to_json() == written
    # the editor shows them back as typed
    again = posted(client.get(f"/rules/{key}/edit"))
    assert again["words_piles"] == "hand, knee, foot" and again["book_clean-called"] == "clean"


@pytest.mark.parametrize(
    ("typed", "field", "message"),
    [
        ({"words_book": "canasta"}, "words_books", "give both book and books"),
        ({"words_piles": "hand, <b>"}, "words_piles", "no <, >"),
    ],
)
def test_words_refused_next_to_their_field(client, typed, field, message):
    data = _editor_data(client, "tablet") | {"name": "Wordy"} | typed
    response = client.post("/rules/new", data=data)
    assert response.status_code == 422
    assert message in (error_of(response, field) or "").lower(), text(response)
    assert posted(response)[field] == typed.get(field, data[field])  # what was typed is kept


def test_a_file_from_before_words_has_hand_and_foots(client):
    before = RULESETS["roth"].to_json()
    assert "words" not in before
    assert RuleSet.from_json(before).say.book_label("clean") == "Clean (red) books"


@pytest.mark.parametrize(
    "key, kinds",
    [("samba", ["Samba canastas"]), ("bolivia", ["Escalera canastas", "Bolivia canastas"])],
)
def test_samba_and_bolivia_speak_of_canastas(client, key, kinds):
    """Their round form, rules page and blank sheet say canastas, their own kinds, one hand,
    and whose red 3s count against them: a side with fewer than two canastas."""
    game_id = start(client, key, [["Ann", "Bo"], ["Cy", "Di"]])
    pages = {
        "round form": visible(client.get(f"/games/{game_id}/rounds/new")),
        "rule set page": visible(client.get(f"/rules/{key}")),
        "blank sheet": " ".join(read(pdf(client, f"/rules/{key}/blank.pdf?teams=4"))[1].split()),
    }
    for name, page in pages.items():
        assert not NEVER_IN_CANASTA.findall(page), (name, NEVER_IN_CANASTA.findall(page))
        for kind in ["Natural canastas", "Mixed canastas", *kinds]:
            assert kind in page, (name, kind)
    assert "Points left in hand" in pages["round form"]
    against = "+100 each; −100 for a team with fewer than 2 canastas"
    assert against in pages["rule set page"]
    assert (
        "All 6 red 3s laid down +400 more; −400 for a team with fewer than 2 canastas"
        in (pages["rule set page"])
    )
    assert "red 3 laid down +100; −100 for a team with fewer than 2 canastas" in pages["blank sheet"]
    assert f"{RULESETS[key].say.game} score sheet" in pages["blank sheet"]
