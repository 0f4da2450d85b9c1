"""The house-rules editor in the words of the rules it shows (issue 23): saved house
rules, new ones from a preset and the new game's "adjust the rules" say canastas
and a hand for Canasta, Samba and Bolivia, books for Hand and Foot, the knee
for a house that holds one; a refused page says the words typed, unless those
are the mistake."""

import re

import pytest

from scorekeeper.scoring import RULESETS
from scorekeeper.services import rulesets

from .test_house_rules import error_of, house_rules_count, posted, save
from .test_words import NEVER_IN_CANASTA, visible

CANASTA_FAMILY = ("canasta", "samba", "bolivia")
HAND_AND_FOOT = [key for key, rules in RULESETS.items() if rules.words is None]
# the fieldset that names the words may explain Hand and Foot's, the defaults
WORDS_FIELDSET = re.compile(
    r"<fieldset>\s*<legend>What your family calls things</legend>.*?</fieldset>", re.S
)
# the "start from" picker lists every rule set by its name (a name, not a word of these rules)
START_FROM = re.compile(r'<form method="get" action="/rules/new" class="rules-start">.*?</form>', re.S)


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


class _Page:
    """A page's HTML with parts cut out, read as ``visible`` reads a response."""

    status_code = 200

    def __init__(self, html):
        self.html = html

    def get_data(self, as_text=True):
        return self.html


def said(response, status=200):
    """What a person reads on an editor page, the words fieldset and the rule sets' names cut out."""
    assert response.status_code == status, response.status_code
    page = response.get_data(as_text=True)
    page, fieldsets = WORDS_FIELDSET.subn("", page)
    assert fieldsets == 1  # the words fieldset was there, and only it was cut
    return visible(_Page(START_FROM.sub("", page)))


def editors(client, key):
    """The editor pages for a rule set: new house rules from it, a new game with it
    (asked for by link, and picked on the page without JavaScript)."""
    picked = posted(client.get("/games/new")) | {"rules_key": key, "action": "load"}
    return {
        "new house rules": said(client.get(f"/rules/new?from={key}")),
        "new game": said(client.get(f"/games/new?rules={key}")),
        "new game, picked": said(client.post("/games/new", data=picked)),
    }


@pytest.mark.parametrize("key", CANASTA_FAMILY)
def test_the_canasta_family_never_says_book_or_foot(client, key):
    for name, page in editors(client, key).items():
        assert not NEVER_IN_CANASTA.findall(page), (name, NEVER_IN_CANASTA.findall(page), page)
        assert "Canastas " in page and "Natural canastas" in page and "Mixed canastas" in page, name
        assert "left in hand." in page and "Red 3 caught in hand " in page, name
        assert "Other kinds of canasta" in page and "To go out: canastas in all" in page, name
        assert "Canastas of red 3s" in page and "Canasta of red 3s: bonus each" in page, name
        assert "First meld must hold these canastas" in page and "1 canasta (of any kind)" in page, name


@pytest.mark.parametrize("key", CANASTA_FAMILY)
def test_its_labels_stay_tied_to_their_inputs(client, key):
    page = client.get(f"/rules/new?from={key}").get_data(as_text=True)
    assert '<label for="books_any_to_go_out">To go out: canastas in all</label>' in page
    assert '<label for="extra_books-0-kind">Kind of canasta</label>' in page
    assert '<label for="deal_foot">Cards in a last pile</label>' in page
    game = client.get(f"/games/new?rules={key}").get_data(as_text=True)
    assert '<label for="rules-red_three_book">Canasta of red 3s: bonus each</label>' in game
    # the page's title names the game
    assert f"· {RULESETS[key].say.game}</title>" in page and f"· {RULESETS[key].say.game}</title>" in game


@pytest.mark.parametrize("key", HAND_AND_FOOT)
def test_hand_and_foot_still_says_books(client, key):
    for name, page in editors(client, key).items():
        assert "Clean (red) books" in page and "Dirty (black) books" in page, name
        assert "Other kinds of book (sevens, wild …)" in page and "To go out: books in all" in page, name
        assert "Red 3 caught in hand or foot" in page and "left in hand and foot." in page, name
        assert "Books of red 3s" in page and "Cards in a foot" in page and "Cards in a knee" in page, name


def _saved_with(db, key, **words):
    return rulesets.save_house_rules(
        db, RULESETS[key].__class__.from_dict(RULESETS[key].to_dict() | {"name": "Ours", "words": words})
    )


def test_a_house_with_a_knee_names_it_wherever_the_piles_are_named(client, db):
    key = _saved_with(db, "tablet", piles=["hand", "knee", "foot"])
    for page in (said(client.get(f"/rules/{key}/edit")), said(client.get(f"/games/new?rules={key}"))):
        assert "left in hand, knee and foot." in page
        assert "Red 3 caught in hand, knee or foot" in page and "Black 3 caught in hand, knee or foot" in page
        assert "Cards in a knee Dealt between the hand and the foot; 0 for none." in page
        assert "Clean (red) books" in page  # books stay books


def test_a_house_of_its_own_words_is_edited_in_them(client, db):
    """Words no preset has: a set of each kind, piles of the house's own names."""
    key = _saved_with(
        db, "tablet", game="Tails", book="set", books="sets", kinds={"clean": "pure"}, piles=["hand", "tail"]
    )
    page = said(client.get(f"/rules/{key}/edit"))
    assert "Pure sets" in page and "Dirty sets" in page and "Sets of black 3s" in page
    assert "left in hand and tail." in page and "Red 3 caught in hand or tail" in page
    assert "Cards in a tail 0 for a game without a tail." in page
    assert "Cards in a middle pile Dealt between the hand and the tail; 0 for none." in page
    assert "1 any (set of any kind)" in page  # what the list accepts for one of any kind
    assert not re.search(r"book|foot", page, re.I), page


def test_a_refused_page_keeps_what_was_typed_in_the_words_typed(client, db):
    url = "/rules/new?from=canasta"
    typed = {"name": "Ours", "going_out": "lots", "words_piles": "hand, knee, foot"}
    values = posted(client.get(url)) | typed
    response = client.post(url, data=values)
    assert response.status_code == 422
    assert error_of(response, "going_out") is not None
    assert posted(response) == values
    page = said(response, 422)
    assert "Red 3 caught in hand, knee or foot" in page and "Natural canastas" in page
    assert house_rules_count(db) == 0


def test_a_refused_page_whose_words_are_the_mistake_says_those_it_started_from(client, db):
    url = "/rules/new?from=canasta"
    values = posted(client.get(url)) | {"name": "Ours", "words_book": "set", "words_books": ""}
    response = client.post(url, data=values)
    assert response.status_code == 422
    assert error_of(response, "words_books") == "Give both book and books (one and more than one)."
    assert posted(response) == values
    # the summary at the top links to the words' own field, whose message names the fields
    html = response.get_data(as_text=True)
    summary = re.search(r'<div class="error-summary" role="alert">.*?</div>', html, re.S)
    assert 'href="#words_books"' in summary[0]
    page = said(_Page(html.replace(summary[0], "")))
    assert "Natural canastas" in page and not NEVER_IN_CANASTA.findall(page), page
    assert house_rules_count(db) == 0


def test_the_new_game_refused_keeps_its_words(client, db):
    values = posted(client.get("/games/new?rules=samba")) | {
        "teams-0-players-0": "Ann",
        "teams-1-players-0": "Cy",
        "rules-going_out": "lots",
    }
    response = client.post("/games/new", data=values)
    assert response.status_code == 422
    assert error_of(response, "rules-going_out") is not None
    assert posted(response) == values
    page = said(response, 422)
    assert "Natural canastas" in page and not NEVER_IN_CANASTA.findall(page), page


def test_saved_words_typed_in_the_editor_then_speak_in_it(client, db):
    url = "/rules/new?from=tablet"
    values = posted(client.get(url)) | {"name": "Ours", "words_book": "set", "words_books": "sets"}
    location = save(client, values, url)
    page = said(client.get(f"{location}/edit"))
    assert "Clean sets" in page and "To go out: sets in all" in page and "Clean (red) books" not in page


def test_lists_of_books_are_typed_and_shown_in_the_kinds_names(client, db):
    url = "/rules/new?from=canasta"
    values = posted(client.get(url)) | {
        "name": "Ours",
        "books_mode": "by_round",
        "books_by_round": "1 natural + 1 mixed\n2 Natural canastas",
        "first_meld_books": "1 natural",
    }
    location = save(client, values, url)
    rules = rulesets.get_rule_set(db, location.rsplit("/", 1)[1]).rules
    assert rules.books_to_go_out == ({"clean": 1, "dirty": 1}, {"clean": 2})
    assert rules.first_meld_books == {"clean": 1}
    again = posted(client.get(f"{location}/edit"))
    assert again["books_by_round"] == "1 natural + 1 mixed\n2 natural"
    assert again["first_meld_books"] == "1 natural"
    # the kind's own name is read too, once a round
    response = client.post(url, data=values | {"name": "Twice", "first_meld_books": "1 natural + 1 clean"})
    assert response.status_code == 422
    assert (
        error_of(response, "first_meld_books") == "natural and clean are the same kind: give it once a round."
    )
    assert house_rules_count(db) == 1


def test_a_name_that_is_another_kinds_own_names_no_kind_in_the_lists(client, db):
    key = _saved_with(db, "tablet", kinds={"clean": "dirty", "dirty": "red"})
    url = f"/rules/{key}/edit"
    page = client.get(url)
    assert "like 1 clean + 1 red." in said(page)  # the clean kind is written clean, not dirty
    values = posted(page) | {"first_meld_books": "1 dirty + 1 red"}
    response = client.post(url, data=values)
    refused = error_of(response, "first_meld_books")
    assert refused == "dirty and red are the same kind: give it once a round."
    save(client, values | {"first_meld_books": "1 dirty"}, url)
    assert rulesets.get_rule_set(db, key).rules.first_meld_books == {"dirty": 1}


@pytest.mark.parametrize(
    ("typed", "field_id", "message"),
    [
        (
            {"books_mode": "by_round", "books_by_round": ""},
            "books_by_round",
            "Enter the canastas for round 1, like 1 natural + 1 mixed.",
        ),
        (
            {"books_mode": "by_round", "books_by_round": "two natural"},
            "books_by_round",
            "“two natural”: write a number and a kind of canasta, like 2 natural.",
        ),
        (
            {"books_mode": "by_round", "books_by_round": "1 natural\n1 natural + 1 sevens"},
            "books_by_round",
            "Round 2, sevens: not a kind of canasta these rules score (natural, mixed).",
        ),
        (
            {"first_meld_books": "1 sevens"},
            "first_meld_books",
            "Sevens: not a kind of canasta these rules score (natural, mixed).",
        ),
        (
            {"first_meld_books": "one natural"},
            "first_meld_books",
            "“one natural”: write a number and a kind of canasta, like 2 natural.",
        ),
    ],
)
def test_a_list_of_canastas_is_refused_in_canastas(client, db, typed, field_id, message):
    """The lists' own messages speak the rule set's words, as its labels do; Hand
    and Foot's say books (tests/integration/test_house_rules.py)."""
    url = "/rules/new?from=canasta"
    values = posted(client.get(url)) | {"name": "Ours"} | typed
    response = client.post(url, data=values)
    assert response.status_code == 422
    assert error_of(response, field_id) == message
    assert posted(response) == values
    assert house_rules_count(db) == 0


def test_a_samba_list_names_its_sambas_among_the_kinds(client, db):
    url = "/rules/new?from=samba"
    values = posted(client.get(url)) | {"name": "Ours", "first_meld_books": "1 sevens"}
    response = client.post(url, data=values)
    assert response.status_code == 422
    assert error_of(response, "first_meld_books") == (
        "Sevens: not a kind of canasta these rules score (natural, mixed, samba)."
    )
    save(client, values | {"first_meld_books": "1 samba"}, url)
    assert house_rules_count(db) == 1
