"""Every text field takes a length fitting its meaning (issue 53), through real requests.

A longer text is refused with a message next to its field before anything reads it (a rule
field of 1 MB at once), the typed values kept and nothing written; the input's maxlength,
the same limit, stops a phone's typing there. What the app itself writes into a field (a
rule set at the engine's bounds) fits.
"""

import html
import importlib
import pkgutil
import re

import pytest
from wtforms import FieldList, FormField, HiddenField, PasswordField, StringField
from wtforms.fields.core import UnboundField
from wtforms.form import BaseForm

from scorekeeper import forms
from scorekeeper.forms.lengths import Fits
from scorekeeper.forms.rule_values import fields_from_rules
from scorekeeper.scoring import RULESETS, RuleSet
from scorekeeper.web.passcode import set_passcode

from ..helpers import at_home
from ..helpers import posted as page_form

ONE_MB = 1_000_000  # characters: the app's body limit is 1 MiB (1,048,576 bytes)


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def error_of(response, field_id):
    """The message shown under a field, or None."""
    match = re.search(
        rf'<p class="error" id="{re.escape(field_id)}-error">(.*?)</p>', response.get_data(as_text=True)
    )
    return html.unescape(match[1]) if match else None


def maxlength_of(response, field_id):
    match = re.search(
        rf'<(?:input|textarea)[^>]* id="{re.escape(field_id)}"[^>]*>', response.get_data(as_text=True)
    )
    assert match, field_id
    found = re.search(r'maxlength="(\d+)"', match[0])
    return int(found[1]) if found else None


def test_a_rule_field_of_1_MB_is_refused_at_once(client, db):
    """The issue's request: a list of numbers 1 MB long. Its list was searched for a comma
    between digits in time that grew with the square of the run (hours at 1 MB)."""
    values = page_form(client.get("/rules/new?from=roth"))
    values |= {"name": "Ours", "meld_mode": "by_round", "meld_by_round": "1" * ONE_MB}
    response = client.post("/rules/new", data=values)
    assert response.status_code == 422
    assert error_of(response, "meld_by_round") == "At most 1,200 characters."
    assert db["house_rules"].count == 0
    page = response.get_data(as_text=True)
    assert 'id="name" maxlength="160" name="name" type="text" value="Ours"' in page  # what was typed stays
    assert "1" * ONE_MB in page


# each text field of the house-rules editor and its limit, as the page's input says it
EDITOR = {
    "name": 160,
    "going_out": 1200,
    "meld_by_round": 1200,
    "meld_by_score": 2000,
    "books_by_round": 20000,
    "first_meld_books": 20000,
    "deal_decks": 480,
    "words_game": 80,
    "words_book": 80,
    "words_books": 80,
    "words_piles": 320,
    "book_clean-called": 80,
    "book_dirty-called": 80,
    "extra_books-0-kind": 80,
    "extra_books-0-called": 80,
    "card_values-K": 20,
    "book_clean-value": 20,
    "red_three_cases-went_out": 20,
}


@pytest.mark.parametrize(("field", "limit"), EDITOR.items())
def test_each_house_rules_field_refuses_text_past_its_length(client, db, field, limit):
    page = client.get("/rules/new?from=roth")
    assert maxlength_of(page, field) == limit
    values = page_form(page) | {"name": "Ours"}
    response = client.post("/rules/new", data=values | {field: "1" * (limit + 1)})
    assert response.status_code == 422
    assert error_of(response, field) == f"At most {limit:,} characters."
    assert db["house_rules"].count == 0
    # at its length the text is read as usual (refused or saved for what it says, not its length)
    response = client.post("/rules/new", data=values | {field: "1" * limit})
    assert error_of(response, field) != f"At most {limit:,} characters."


def test_a_field_refused_for_its_length_is_said_once_in_the_readers_language(client, db):
    values = page_form(client.get("/rules/new?from=roth")) | {"name": "Ours", "words_book": "x" * 81}
    response = client.post("/rules/new", data=values, headers={"Accept-Language": "pt-BR"})
    assert response.status_code == 422
    assert error_of(response, "words_book") == "No máximo 80 caracteres."
    response = client.post("/rules/new", data=values | {"books_by_round": "x" * 20001})
    assert error_of(response, "books_by_round") == "At most 20,000 characters."
    assert error_of(response, "words_book") == "At most 80 characters."  # its message alone


def test_the_new_game_pages_names_and_rules_refuse_text_past_their_length(client, db):
    page = client.get("/games/new?rules=roth")
    for field in ("teams-0-name", "teams-0-players-0", "first_dealer"):
        assert maxlength_of(page, field) == 80
    assert maxlength_of(page, "rules-going_out") == 1200
    values = page_form(page) | {
        "teams-0-players-0": "Ann",
        "teams-1-players-0": "Bo",
        "teams-0-name": "x" * 81,
        "teams-1-players-1": "y" * (ONE_MB // 2),
        "first_dealer": "z" * 81,
        "rules-going_out": "1" * 1201,
    }
    response = client.post("/games/new", data=values)
    assert response.status_code == 422
    for field, said in {
        "teams-0-name": "At most 80 characters.",
        "teams-1-players-1": "At most 80 characters.",
        "first_dealer": "At most 80 characters.",
        "rules-going_out": "At most 1,200 characters.",
    }.items():
        assert error_of(response, field) == said, field
    assert "A game needs at least two teams" not in response.get_data(as_text=True)
    assert db["games"].count == 0


def test_a_round_number_and_a_day_refuse_text_past_their_length(client, db, make_game):
    game = make_game("roth")
    url = f"/games/{game.id}/rounds/new"
    page = client.get(url)
    assert maxlength_of(page, "teams-0-melded_points") == 20
    values = page_form(page) | {"teams-0-melded_points": "1" * 21, "action": "save"}
    response = client.post(url, data=values)  # to its check, the values in the address
    assert response.status_code == 303
    response = client.get(response.headers["Location"])
    assert error_of(response, "teams-0-melded_points") == "At most 20 characters."
    assert 'value="111111111111111111111"' in response.get_data(as_text=True)
    assert db["rounds"].count == 0

    values = page_form(client.get("/games/new?rules=roth")) | {
        "teams-0-players-0": "Ann",
        "teams-1-players-0": "Bo",
        "played_day": "2026-01-05" + " " * (ONE_MB // 2),
    }
    response = client.post("/games/new", data=values)
    assert error_of(response, "played_day") == "Enter a day as year-month-day, like 2026-11-25."
    assert db["games"].count == 1  # the one make_game made


def test_an_evenings_newcomer_and_a_renamed_player_refuse_names_past_their_length(client, db, make_game):
    page = client.get("/evenings/new")
    assert maxlength_of(page, "newcomers-0") == 80
    values = page_form(page) | {"newcomers-0": "Ann", "newcomers-1": "x" * 81, "newcomers-2": "Bo"}
    response = client.post("/evenings/new", data=values)
    assert error_of(response, "newcomers-1") == "At most 80 characters."
    assert db["players"].count == 0

    make_game("roth")
    player = db.execute("select id from players order by id").fetchone()[0]
    page = client.get(f"/players/{player}/rename")
    assert maxlength_of(page, "name") == 80
    response = client.post(f"/players/{player}/rename", data=page_form(page) | {"name": "x" * ONE_MB})
    assert response.status_code == 422
    assert error_of(response, "name") == "At most 80 characters."
    assert db.execute("select name from players where id = ?", [player]).fetchone()[0] == "Ann"


def test_passcodes_and_the_household_code_refuse_text_past_their_length(app, db):
    client = app.test_client()  # a phone that has not given the household code
    page = client.get("/household")
    assert maxlength_of(page, "code") == 20
    response = client.post("/household", data={"code": "1" * ONE_MB})
    assert error_of(response, "code") == "At most 20 characters."

    at_home(client, app)
    page = client.get("/settings")
    assert maxlength_of(page, "new") == maxlength_of(page, "confirm") == 128
    response = client.post("/settings", data={"new": "x" * (ONE_MB // 2), "confirm": "x"})
    assert error_of(response, "new") == "Use at most 128 characters."

    set_passcode(app.instance_path, "four4")
    page = client.get("/sign-in")
    assert maxlength_of(page, "passcode") == 128
    response = client.post("/sign-in", data={"passcode": "x" * 129})
    assert error_of(response, "passcode") == "Use at most 128 characters."
    # a guess all the same: no passcode set is that long
    assert db.execute("select wrong from passcode_guesses where scope = 'household'").fetchone()[0] == 1


def test_what_the_editor_writes_fits_its_fields():
    """Every preset, and a rule set at the engine's bounds (a number per round for every
    round, a pair per round, the longest words), fills the editor within its limits."""
    widest = RuleSet.from_dict(
        {
            **RULESETS["roth"].to_dict(),
            "name": "N" * 80,
            "going_out": [-1_000_000] * 100,
            "meld_minimum": {"by_score": [[-1_000_000 + i, 1_000_000] for i in range(100)]},
            "books_to_go_out": [{"clean": 99, "dirty": 99}] * 100,
            "first_meld_books": [{"clean": 99, "dirty": 99}] * 100,
            "deal": {
                "decks": [[p, 30] for p in range(1, 25)],
                "hand": 11,
                "knee": 0,
                "foot": 11,
                "jokers": 2,
            },
            "words": {"game": "G" * 40, "book": "b" * 40, "books": "s" * 40, "piles": ["p" * 40] * 4},
        }
    )
    for rules in [*RULESETS.values(), widest]:
        filled = fields_from_rules(rules)
        for field, limit in EDITOR.items():
            value = filled
            for part in field.split("-"):
                value = value.get(part) if isinstance(value, dict) else None
            if isinstance(value, str):
                assert len(value) <= limit, (rules.name, field, len(value))


def _text_fields(form_class, where=""):
    """(name, its validators) for each text field a form class declares, in its subforms too."""
    for name in dir(form_class):
        unbound = getattr(form_class, name, None)
        if not isinstance(unbound, UnboundField):
            continue
        yield from _unbound_text_fields(unbound, f"{where}{form_class.__name__}.{name}")


def _unbound_text_fields(unbound, where):
    kind = unbound.field_class
    if issubclass(kind, FieldList):
        yield from _unbound_text_fields(unbound.args[0], where + "[]")
    elif issubclass(kind, FormField):
        yield from _text_fields(unbound.args[0], where + ".")
    elif issubclass(kind, (StringField, PasswordField)) and not issubclass(kind, HiddenField):
        validators = unbound.kwargs.get("validators") or (unbound.args[1] if len(unbound.args) > 1 else [])
        yield where, list(validators)


def test_every_text_field_of_every_form_is_measured_first():
    """Each text field any form declares (a name, a word, a list, a passcode, the household
    code) has its length checked first, so that nothing else reads a longer text."""
    found = {}
    for info in pkgutil.iter_modules(forms.__path__, forms.__name__ + "."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseForm)
                and value.__module__ == module.__name__
            ):
                found.update(_text_fields(value))
    assert len(found) >= 21, sorted(found)
    unmeasured = [
        where for where, validators in found.items() if not validators or not isinstance(validators[0], Fits)
    ]
    assert not unmeasured
