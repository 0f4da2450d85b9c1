"""Making, editing, importing and deleting house rules through the app, with real requests.

Forms are filled the way a browser would: the page is read, a few values
changed, and everything it shows is posted back.
"""

import dataclasses
import html
import io
import json
import re

import pytest
from flask import render_template_string
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import FormField, StringField

from scorekeeper.forms.rule_lists import parse_books_by_round, parse_numbers, parse_score_steps
from scorekeeper.forms.rule_values import fields_from_rules, rules_from_fields
from scorekeeper.forms.rules import MAX_FILE_SIZE, RulesFields
from scorekeeper.scoring import RULESETS, RuleSet
from scorekeeper.services import rulesets

from ..helpers import posted as page_form
from ..helpers import text

ROTH = RULESETS["roth"]
SEVENS = RuleSet.from_dict(
    {
        **RULESETS["tablet"].to_dict(),
        "name": "Sevens house",
        "red_three_melded": 100,
        "going_out": [100, 200, 300],
        "books": {"clean": 500, "dirty": 300, "sevens": 1500},
        "books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 2, "sevens": 1}],
    }
)


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # test_posts_need_a_csrf_token turns it back on
    return app


def posted(response):
    """The values of the page's form, as a browser would post them."""
    assert response.status_code in (200, 422), response.status_code
    return page_form(response)


def house_rules_count(db):
    return db["house_rules"].count


def saved(db, key="house-1"):
    return rulesets.get_rule_set(db, key).rules


def error_of(response, field_id):
    """The message shown under a field, or None."""
    match = re.search(
        rf'<p class="error" id="{re.escape(field_id)}-error">(.*?)</p>', response.get_data(as_text=True)
    )
    return html.unescape(match[1]) if match else None


def save(client, values, url="/rules/new"):
    response = client.post(url, data=values)
    assert response.status_code == 303, re.findall(r'class="error"[^>]*>(.*?)<', text(response))
    return response.headers["Location"]


# --- making house rules -------------------------------------------------------------


@pytest.mark.parametrize("key", RULESETS)
def test_new_house_rules_from_each_preset_equal_it_apart_from_the_name(client, db, key):
    page = client.get(f"/rules/new?from={key}")
    assert page.status_code == 200
    values = posted(page)
    assert values["name"] == ""
    location = save(client, values | {"name": "Ours"}, f"/rules/new?from={key}")
    assert location == "/rules/house-1"
    assert saved(db) == dataclasses.replace(RULESETS[key], name="Ours")
    sheet = text(client.get(location))
    assert "Saved your house rules “Ours”." in sheet and "<h1>Ours</h1>" in sheet


def test_new_starts_from_the_first_preset(client):
    first = next(iter(RULESETS.values()))
    page = text(client.get("/rules/new"))
    assert f"Starting from <strong>{first.name}</strong>" in page
    assert 'name="from"' in page  # a plain GET form picks another starting point


def test_new_from_saved_house_rules_keeps_every_value(client, db):
    key = rulesets.save_house_rules(db, SEVENS)
    values = posted(client.get(f"/rules/new?from={key}"))
    assert values["extra_books-0-kind"] == "sevens" and values["going_out"] == "100, 200, 300"
    assert values["books_by_round"] == "1 clean + 1 dirty\n2 clean + 2 dirty + 1 sevens"
    save(client, values | {"name": "Sevens again"}, f"/rules/new?from={key}")
    assert saved(db, "house-2") == dataclasses.replace(SEVENS, name="Sevens again")


def test_new_from_an_unknown_rule_set_is_a_404(client):
    assert client.get("/rules/new?from=nope").status_code == 404


def test_the_lists_link_to_the_editor(client, db):
    index = text(client.get("/rules"))
    assert 'href="/rules/new">New house rules' in index
    assert 'href="/rules/import">Import a file' in index
    preset = text(client.get("/rules/roth"))
    assert 'href="/rules/new?from=roth">Make house rules from these' in preset
    assert "/rules/roth/edit" not in preset and "/rules/roth/delete" not in preset
    key = rulesets.save_house_rules(db, SEVENS)
    house = text(client.get(f"/rules/{key}"))
    assert f'href="/rules/{key}/edit">Edit' in house and f'href="/rules/{key}/delete">Delete' in house


# --- editing every kind of value ----------------------------------------------------


@pytest.fixture
def roth_copy(db):
    """Saved house rules that start as Roth's; returns their edit page's URL."""
    key = rulesets.save_house_rules(db, dataclasses.replace(ROTH, name="Roth copy"))
    return f"/rules/{key}/edit"


def test_edit_every_value(client, db, roth_copy):
    values = posted(client.get(roth_copy))
    assert values["red_three_sign"] == "lose" and values["red_three"] == "500"
    values |= {
        "name": "Roth 2027",
        **{f"card_values-{rank}": "15" for rank in ("9", "8", "7")},
        "red_three_sign": "lose",
        "red_three": "300",
        "black_three_sign": "gain",
        "black_three": "5",
        "penalty_sign": "lose",
        "penalty": "50",
        "red_three_melded": "100",
        "cut_22": "0",
        "book_clean-value": "600",
        "book_dirty-value": "250",
        "extra_books-0-kind": "Sevens",
        "extra_books-0-value": "1,500",
        "extra_books-2-kind": "wild",
        "extra_books-2-value": "2000",
        "books_mode": "same",
        "book_clean-to_go_out": "2",
        "book_dirty-to_go_out": "1",
        "extra_books-0-to_go_out": "1",
        "extra_books-2-to_go_out": "",
        "going_out": "100, 200, 300",
        "meld_mode": "by_round",
        "meld_by_round": "50 90 120",
        "end_mode": "rounds",
        "end_rounds": "6",
    }
    assert save(client, values, roth_copy) == "/rules/house-1"
    assert saved(db).to_dict() == {
        "name": "Roth 2027",
        "card_values": {**ROTH.card_values, "9": 15, "8": 15, "7": 15},
        "black_three": 5,
        "red_three": -300,
        "red_three_melded": 100,
        "books": {"clean": 600, "dirty": 250, "sevens": 1500, "wild": 2000},
        "going_out": [100, 200, 300],
        "cut_22": 0,
        "penalty": -50,
        "meld_minimum": {"by_round": [50, 90, 120]},
        "books_to_go_out": {"clean": 2, "dirty": 1, "sevens": 1},
        "end": {"rounds": 6},
        # Roth's deal, as the copy had it: one deck per player
        "deal": {"decks": {"per_player": 1, "extra": 0}, "hand": 11, "foot": 11, "jokers": 2},
    }
    assert "Saved your changes to “Roth 2027”." in text(client.get("/rules/house-1"))
    # and the editor shows them back as they were typed
    again = posted(client.get(roth_copy))
    assert again["black_three_sign"] == "gain" and again["extra_books-1-kind"] == "wild"


OPTIONS = {  # id: (what is typed, what the rule set then holds)
    "meld-none": ({"meld_mode": "none"}, {"meld_minimum": None}),
    "meld-by-round": (
        {"meld_mode": "by_round", "meld_by_round": "60; 90, 120"},
        {"meld_minimum": {"by_round": [60, 90, 120]}},
    ),
    "meld-by-score-pairs": (
        {"meld_mode": "by_score", "meld_by_score": "0: 50, 3000: 90, 6000: 120"},
        {"meld_minimum": {"by_score": [[0, 50], [3000, 90], [6000, 120]]}},
    ),
    "meld-by-score-lines": (
        {"meld_mode": "by_score", "meld_by_score": "-500: 15\r\n0: 50\r\n\r\n4000: 100\r\n"},
        {"meld_minimum": {"by_score": [[-500, 15], [0, 50], [4000, 100]]}},
    ),
    "books-none": ({"books_mode": "none"}, {"books_to_go_out": None}),
    "books-same": (
        {"books_mode": "same", "book_clean-to_go_out": "3", "book_dirty-to_go_out": "0"},
        {"books_to_go_out": {"clean": 3, "dirty": 0}},
    ),
    "books-by-round": (
        {"books_mode": "by_round", "books_by_round": "1 clean + 1 dirty; 2 clean books, 2 dirty\nnone"},
        {"books_to_go_out": [{"clean": 1, "dirty": 1}, {"clean": 2, "dirty": 2}, {}]},
    ),
    "end-none": ({"end_mode": "none"}, {"end": None}),
    "end-rounds": ({"end_mode": "rounds", "end_rounds": "3"}, {"end": {"rounds": 3}}),
    "end-score": ({"end_mode": "score", "end_score": "5,000"}, {"end": {"score": 5000}}),
    "going-out-one": ({"going_out": "250"}, {"going_out": 250}),
    "going-out-by-round": ({"going_out": "0, 100\n1000"}, {"going_out": [0, 100, 1000]}),
    # Samba's "red 3s count against a side short of two canastas"
    "not-melded-books": ({"not_melded_books": "2"}, {"not_melded_books": 2}),
    "not-melded-books-blank": ({"not_melded_books": ""}, {}),
}


@pytest.mark.parametrize("changes, expected", OPTIONS.values(), ids=OPTIONS)
def test_edit_each_kind_of_option(client, db, roth_copy, changes, expected):
    save(client, posted(client.get(roth_copy)) | changes, roth_copy)
    assert saved(db).to_dict() == ROTH.to_dict() | {"name": "Roth copy"} | expected


@pytest.mark.parametrize(
    "sign, points, value",
    [
        ("lose", "500", -500),
        ("gain", "500", 500),
        ("lose", "0", 0),
        ("gain", "0", 0),
    ],
)
def test_signed_values_take_any_sign_without_a_minus_key(client, db, roth_copy, sign, points, value):
    values = posted(client.get(roth_copy))
    save(
        client,
        values | {"red_three_sign": sign, "red_three": points, "penalty_sign": sign, "penalty": points},
        roth_copy,
    )
    assert saved(db).red_three == value and saved(db).penalty == value


def test_unused_options_are_ignored(client, db, roth_copy):
    """What sits in a field the chosen options do not use is not read."""
    values = posted(client.get(roth_copy)) | {
        "meld_by_round": "1, 2, many",
        "books_by_round": "lots",
        "end_rounds": "",
    }
    save(client, values, roth_copy)
    assert saved(db) == dataclasses.replace(ROTH, name="Roth copy")


def test_renaming_in_another_case_is_allowed(client, db, roth_copy):
    save(client, posted(client.get(roth_copy)) | {"name": "ROTH COPY"}, roth_copy)
    assert saved(db).name == "ROTH COPY"


def test_editing_a_preset_leads_to_a_copy(client):
    response = client.get("/rules/roth/edit")
    assert response.status_code == 302 and response.headers["Location"] == "/rules/new?from=roth"
    assert "change a copy of them here" in text(client.get("/rules/new?from=roth"))


def test_the_edit_page_says_games_keep_their_own_rules(client, roth_copy):
    page = text(client.get(roth_copy))
    assert "<h1>Edit Roth copy</h1>" in page
    assert "games already played never change" in page


# --- refusals ---------------------------------------------------------------------------

THOUSANDS = "write thousands without a comma (2500), and put a space after a comma between numbers (50, 90)."

REFUSALS = [
    # (what is typed, the field the message is under, the message)
    ({"card_values-9": "nine"}, "card_values-9", "Enter a whole number, like 120."),
    ({"card_values-9": "-5"}, "card_values-9", "Can’t be negative."),
    ({"card_values-joker": "5000"}, "card_values-joker", "At most 1,000."),
    ({"card_values-A": ""}, "card_values-A", "Enter a number."),
    ({"red_three": "-500"}, "red_three", "Can’t be negative."),
    ({"cut_22": "-100"}, "cut_22", "Can’t be negative."),
    ({"red_three_melded": "lots"}, "red_three_melded", "Enter a whole number, like 120."),
    ({"book_dirty-value": "-300"}, "book_dirty-value", "Can’t be negative."),
    ({"book_clean-value": ""}, "book_clean-value", "Enter a number."),
    ({"going_out": ""}, "going_out", "Enter a number, or one per round like 50, 90, 120."),
    ({"going_out": "a hundred"}, "going_out", "“a” is not a whole number."),
    ({"going_out": "1,000"}, "going_out", "“1,000”: " + THOUSANDS),
    ({"going_out": "100, 2000000"}, "going_out", "Round 2: must be at most 1000000, not 2000000."),
    ({"meld_by_score": "0: 50, 0: 90"}, "meld_by_score", "Pair 2: scores must rise (0 comes after 0)."),
    ({"meld_by_score": "0: 50\n2500: -90"}, "meld_by_score", "Pair 2, minimum: must be at least 0, not -90."),
    ({"meld_by_score": "0 50"}, "meld_by_score", "“0 50”: write a score and its minimum, like 2500: 90."),
    ({"meld_by_score": "0: 50, 2,500: 90"}, "meld_by_score", "“2,500”: " + THOUSANDS),
    ({"meld_by_score": " "}, "meld_by_score", "Enter at least one pair, like 0: 50."),
    (
        {"meld_mode": "by_round", "meld_by_round": "50, -90"},
        "meld_by_round",
        "Round 2: must be at least 0, not -90.",
    ),
    (
        {"meld_mode": "by_round", "meld_by_round": ""},
        "meld_by_round",
        "Enter a number, or one per round like 50, 90, 120.",
    ),
    (
        {"books_mode": "by_round", "books_by_round": "1 clean + 1 dirty\n2 clean + 1 sevens"},
        "books_by_round",
        "Round 2, sevens: not a kind of book these rules score (clean, dirty).",
    ),
    (
        {"books_mode": "by_round", "books_by_round": "two clean"},
        "books_by_round",
        "“two clean”: write a number and a kind of book, like 2 clean.",
    ),
    (
        {"books_mode": "by_round", "books_by_round": "1 clean + 2 clean"},
        "books_by_round",
        "“1 clean + 2 clean”: clean is given twice.",
    ),
    (
        {"books_mode": "by_round", "books_by_round": ""},
        "books_by_round",
        "Enter the books for round 1, like 1 clean + 1 dirty.",
    ),
    (
        {"books_mode": "same", "book_clean-to_go_out": "", "book_dirty-to_go_out": ""},
        "book_clean-to_go_out",
        "Enter the books needed to go out, or choose “No set number” below.",
    ),
    ({"book_dirty-to_go_out": "100"}, "book_dirty-to_go_out", "At most 99."),
    (
        {"extra_books-0-kind": "7s", "extra_books-0-value": "100"},
        "extra_books-0-kind",
        "A kind of book is named with lower-case letters, digits and _ (like sevens or wild).",
    ),
    ({"extra_books-1-value": "100"}, "extra_books-1-kind", "Name the kind of book, like sevens."),
    ({"extra_books-0-kind": "sevens"}, "extra_books-0-value", "Enter a number."),
    (
        {"extra_books-0-kind": "Clean", "extra_books-0-value": "10"},
        "extra_books-0-kind",
        "“clean” books are already listed.",
    ),
    ({"end_mode": "rounds", "end_rounds": ""}, "end_rounds", "Enter a number."),
    ({"end_mode": "rounds", "end_rounds": "0"}, "end_rounds", "At least 1."),
    ({"end_score": "0"}, "end_score", "At least 1."),
    ({"name": "  "}, "name", "Give these rules a name."),
    ({"name": "x" * 81}, "name", "At most 80 characters."),
    (
        {"name": "roth family HOUSE rules (to 10,000)"},
        "name",
        "There is already a rule set called “roth family HOUSE rules (to 10,000)”.",
    ),
]


@pytest.mark.parametrize("typed, field_id, message", REFUSALS, ids=[r[1] for r in REFUSALS])
def test_new_refuses_with_the_message_next_to_its_field(client, db, typed, field_id, message):
    values = posted(client.get("/rules/new?from=roth")) | {"name": "Ours"} | typed
    response = client.post("/rules/new?from=roth", data=values)
    assert response.status_code == 422
    assert error_of(response, field_id) == message
    assert f'href="#{field_id}"' in response.get_data(as_text=True)  # the summary at the top links to it
    assert posted(response) == values  # everything typed is kept
    assert house_rules_count(db) == 0


def test_an_unknown_choice_is_refused(client, db):
    values = posted(client.get("/rules/new")) | {"name": "Ours", "red_three_sign": "maybe"}
    response = client.post("/rules/new", data=values)
    assert response.status_code == 422
    assert error_of(response, "red_three_sign") == "Not a valid choice."
    assert house_rules_count(db) == 0


def test_the_engine_speaks_once_the_fields_are_right(client, db):
    """Typing mistakes all show at once; the engine's own check comes after them."""
    values = posted(client.get("/rules/new?from=roth")) | {
        "name": "",
        "card_values-9": "x",
        "going_out": "1,0",
        "meld_by_score": "0: 50, 0: 90",
    }
    response = client.post("/rules/new?from=roth", data=values)
    shown = [
        error_of(response, f) is not None for f in ("name", "card_values-9", "going_out", "meld_by_score")
    ]
    assert shown == [True, True, True, False]
    assert text(response).count('<li><a href="#') == 3  # the summary at the top


def test_a_name_taken_by_saved_rules_is_refused(client, db, roth_copy):
    rulesets.save_house_rules(db, SEVENS)
    values = posted(client.get(roth_copy)) | {"name": "sevens HOUSE", "going_out": "150"}
    response = client.post(roth_copy, data=values)
    assert response.status_code == 422
    assert error_of(response, "name") == "There is already a rule set called “sevens HOUSE”."
    assert posted(response)["going_out"] == "150"
    assert saved(db) == dataclasses.replace(ROTH, name="Roth copy")  # nothing written
    response = client.post("/rules/new", data=posted(client.get("/rules/new")) | {"name": "Roth copy"})
    assert error_of(response, "name") == "There is already a rule set called “Roth copy”."
    assert house_rules_count(db) == 2


def test_edit_refusals_write_nothing(client, db, roth_copy):
    values = posted(client.get(roth_copy)) | {"card_values-K": "-10", "going_out": "200"}
    response = client.post(roth_copy, data=values)
    assert response.status_code == 422 and error_of(response, "card_values-K") == "Can’t be negative."
    assert posted(response) == values
    assert saved(db) == dataclasses.replace(ROTH, name="Roth copy")


def test_edit_and_delete_need_saved_house_rules(client, db):
    for url in (
        "/rules/house-9/edit",
        "/rules/nope/edit",
        "/rules/house-9/delete",
        "/rules/nope/delete",
        "/rules/roth/delete",
    ):
        assert client.get(url).status_code == 404, url
        assert client.post(url).status_code == 404, url
    assert "only house rules can be changed or deleted" in text(client.get("/rules/roth/delete"))


def test_update_house_rules_keeps_the_key_and_the_creation_time(db):
    key = rulesets.save_house_rules(db, SEVENS)
    db.execute("UPDATE house_rules SET updated_at = '2020-01-01T00:00:00+00:00'")
    before = db["house_rules"].get(1)
    assert rulesets.update_house_rules(db, key, 0, dataclasses.replace(ROTH, name="Renamed")) == key
    after = db["house_rules"].get(1)
    assert after["created_at"] == before["created_at"] and after["updated_at"] > before["updated_at"]
    assert after["name"] == "Renamed" and saved(db, key) == dataclasses.replace(ROTH, name="Renamed")
    with pytest.raises(ValueError, match=r"^name: there is already a rule set called"):
        rulesets.update_house_rules(db, key, 1, dataclasses.replace(ROTH, name="tablet GAME (5 hands)"))
    for unknown in ("house-9", "roth", "nope"):
        with pytest.raises(LookupError):
            rulesets.update_house_rules(db, unknown, 0, SEVENS)
        with pytest.raises(LookupError):
            rulesets.delete_house_rules(db, unknown, 0)
    assert saved(db, key).name == "Renamed"


# --- delete ---------------------------------------------------------------------------


def test_delete_asks_first_then_deletes(client, db):
    key = rulesets.save_house_rules(db, SEVENS)
    page = client.get(f"/rules/{key}/delete")
    assert page.status_code == 200
    assert "<h1>Delete “Sevens house”?</h1>" in text(page)
    assert "keep their own copy" in text(page)
    assert house_rules_count(db) == 1  # asking deletes nothing
    response = client.post(f"/rules/{key}/delete", data=posted(page))  # what the page's button sends
    assert response.status_code == 303 and response.headers["Location"] == "/rules"
    assert house_rules_count(db) == 0
    assert "Deleted “Sevens house”." in text(client.get("/rules"))
    assert client.get(f"/rules/{key}").status_code == 404


# --- import and export -----------------------------------------------------------------


def upload(client, content, filename="rules.json", **fields):
    data = {"file": (io.BytesIO(content), filename), **fields}
    return client.post("/rules/import", data=data, content_type="multipart/form-data")


def test_import_page(client):
    page = client.get("/rules/import")
    assert page.status_code == 200
    assert 'enctype="multipart/form-data"' in text(page) and 'type="file"' in text(page)


def test_import_a_good_file(client, db):
    response = upload(client, SEVENS.to_json().encode())
    assert response.status_code == 303 and response.headers["Location"] == "/rules/house-1"
    assert saved(db) == SEVENS
    assert "Imported “Sevens house”." in text(client.get("/rules/house-1"))


BAD_FILES = [
    (
        json.dumps(
            {**ROTH.to_dict(), "name": "Bad", "meld_minimum": {"by_score": [[0, 50], [0, 90]]}}
        ).encode(),
        "meld_minimum.by_score[1]: scores must rise (0 comes after 0)",
    ),
    (
        json.dumps({**ROTH.to_dict(), "card_values": {**ROTH.card_values, "3": 5}}).encode(),
        "card_values.3: not a rank",
    ),
    (
        json.dumps({**ROTH.to_dict(), "books_to_go_out": {"clean": 1, "sevens": 1}}).encode(),
        "books_to_go_out.sevens: not a kind of book these rules score (clean, dirty)",
    ),
    (b"name: Roth\n", "house rules: not a JSON file"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "house rules: not a JSON file"),
    (b"[1, 2, 3]", "house rules: must be a JSON object"),
]


@pytest.mark.parametrize("content, message", BAD_FILES)
def test_import_refuses_a_bad_file_naming_the_field(client, db, content, message):
    response = upload(client, content)
    assert response.status_code == 422
    assert error_of(response, "file").startswith(message)
    assert house_rules_count(db) == 0


def test_import_refuses_a_missing_or_too_big_file(client, db):
    response = client.post("/rules/import", data={"name": "Ours"}, content_type="multipart/form-data")
    assert response.status_code == 422
    assert error_of(response, "file") == "Choose a house-rules file."
    assert posted(response)["name"] == "Ours"
    padded = SEVENS.to_json().replace("{", "{" + " " * MAX_FILE_SIZE, 1).encode()
    response = upload(client, padded)
    assert response.status_code == 422
    assert error_of(response, "file") == "That file is too big for a house-rules file (at most 64 KB)."
    assert house_rules_count(db) == 0


def test_import_a_taken_name_then_save_it_as_another(client, db):
    rulesets.save_house_rules(db, SEVENS)
    response = upload(client, SEVENS.to_json().encode())
    assert response.status_code == 422
    assert error_of(response, "name") == "There is already a rule set called “Sevens house”."
    assert house_rules_count(db) == 1
    response = upload(client, ROTH.to_json().encode())
    assert error_of(response, "name").startswith("There is already a rule set called “Roth family")
    response = upload(client, SEVENS.to_json().encode(), name="x" * 81)
    assert error_of(response, "name") == "At most 80 characters."
    assert house_rules_count(db) == 1
    response = upload(client, SEVENS.to_json().encode(), name="  Sevens  at Gran's ")
    assert response.status_code == 303
    assert saved(db, "house-2") == dataclasses.replace(SEVENS, name="Sevens at Gran's")


def test_export_then_import_under_another_name_round_trips(client, db):
    key = rulesets.save_house_rules(db, SEVENS)
    download = client.get(f"/rules/{key}.json")
    assert download.status_code == 200 and download.mimetype == "application/json"
    response = upload(client, download.data, f"{key}.json", name="Sevens copy")
    assert response.status_code == 303 and response.headers["Location"] == "/rules/house-2"
    assert saved(db, "house-2") == dataclasses.replace(SEVENS, name="Sevens copy")


# --- CSRF -----------------------------------------------------------------------------------


def test_posts_need_a_csrf_token(app, client, db, roth_copy):
    app.config["WTF_CSRF_ENABLED"] = True
    values = posted(client.get("/rules/new"))
    token = values.pop("csrf_token")
    for url in ("/rules/new", roth_copy, "/rules/house-1/delete", "/rules/import"):
        assert client.post(url, data=values | {"name": "Ours"}).status_code == 400, url
    assert house_rules_count(db) == 1 and saved(db).name == "Roth copy"
    assert save(client, values | {"name": "Ours", "csrf_token": token}) == "/rules/house-2"


# --- the typed lists on their own ------------------------------------------------------------


def test_parsing_the_typed_lists():
    assert parse_numbers("50, 90;120\n150") == [50, 90, 120, 150]
    assert parse_numbers("\u2212100") == [-100]
    assert parse_score_steps("0: 50\n2500 : 90, 5000:120") == [[0, 50], [2500, 90], [5000, 120]]
    assert parse_books_by_round("1 Clean + 1 dirty books; 1 wild cards\nNone") == [
        {"clean": 1, "dirty": 1},
        {"wild_cards": 1},
        {},
    ]
    for typed in ("50,90", "100,200,300", "1,000"):
        with pytest.raises(ValueError, match="without a comma"):
            parse_numbers(typed)


# --- embedded in another form (the New Game page) --------------------------------------------


class _GameForm(FlaskForm):
    """Like the New Game page: RulesFields embedded under a prefix."""

    name = StringField("Game")
    rules = FormField(RulesFields)


EMBEDDED = (
    '{% from "rules/_fields.html" import rules_fields %}'
    '<form method="post">{{ rules_fields(form.rules) }}</form>'
)


def test_the_fields_work_inside_another_form(app):
    """The partial renders a RulesFields under a FormField, and it reads back with its messages."""
    with app.test_request_context():
        form = _GameForm(data={"rules": fields_from_rules(SEVENS)})
        values = page_form(render_template_string(EMBEDDED, form=form))
        assert values["rules-name"] == "Sevens house" and values["rules-extra_books-0-kind"] == "sevens"

        form = _GameForm(formdata=MultiDict(values))
        assert form.validate()
        assert rules_from_fields(form.rules) == SEVENS

        form = _GameForm(
            formdata=MultiDict(
                values | {"rules-meld_mode": "by_score", "rules-meld_by_score": "0: 50, 0: 90"}
            )
        )
        form.validate()
        assert rules_from_fields(form.rules) is None
        assert form.rules["meld_by_score"].errors == ["Pair 2: scores must rise (0 comes after 0)."]
        assert 'id="rules-meld_by_score-error"' in render_template_string(EMBEDDED, form=form)


def test_a_request_too_large_is_refused_before_it_is_read(client, db):
    # raw bytes: the test client would spool a multipart body this big to a temporary file
    response = client.post(
        "/rules/import", data=b"-" * (2 * 1024 * 1024), content_type="multipart/form-data; boundary=x"
    )
    assert response.status_code == 413
    assert db["house_rules"].count == 0
