"""Every refusal says why: each message a change can be refused with reaches the page whole.

A change made on another phone meanwhile (a stale revision), a page posted without
its revision, an undo that is no longer the last change: each is refused, nothing is
written, and the page says so in the words the app wrote, none of them lost.
"""

import dataclasses
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.forms.rule_values import show_error
from scorekeeper.forms.rules import HouseRulesForm
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import game_model, games, players, rulesets

from ..helpers import posted, text

ROUND = [TeamRound(books={"clean": 1}, melded_points=300, went_out=True), TeamRound(melded_points=100)]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # these tests are about what happens after the token
    return app


def shown(response):
    """What a person reads: the page's text, one run of spaces."""
    return re.sub(r"\s+", " ", text(response))


def test_house_rules_saved_on_two_phones(client, db):
    key = rulesets.save_house_rules(db, dataclasses.replace(RULESETS["roth"], name="Ours"))
    first, second = posted(client.get(f"/rules/{key}/edit")), posted(client.get(f"/rules/{key}/edit"))
    assert client.post(f"/rules/{key}/edit", data=first | {"going_out": "150"}).status_code == 303
    refused = client.post(f"/rules/{key}/edit", data=second | {"going_out": "250"})
    assert refused.status_code == 422
    message = (
        "These house rules were changed on another phone since you opened this page, "
        "so nothing was saved. Here they are as they are now."
    )
    page = text(refused)
    assert f'<div class="error-summary" role="alert"><p>{message}</p></div>' in page
    assert "<p>.</p>" not in page
    assert posted(refused)["going_out"] == "250"  # what was typed stays
    assert rulesets.get_rule_set(db, key).rules.going_out == 150


def test_house_rules_deleted_after_another_phone_changed_them(client, db):
    key = rulesets.save_house_rules(db, dataclasses.replace(RULESETS["roth"], name="Ours"))
    asked = posted(client.get(f"/rules/{key}/delete"))
    rulesets.update_house_rules(db, key, 0, dataclasses.replace(RULESETS["roth"], name="Ours, changed"))
    refused = client.post(f"/rules/{key}/delete", data=asked, follow_redirects=True)
    assert (
        "Nothing was deleted: These house rules were changed on another phone since you opened "
        "this page, so nothing was saved. Here they are as they are now."
    ) in shown(refused)
    assert rulesets.get_rule_set(db, key) is not None


def test_a_player_renamed_on_two_phones(client, db, make_game):
    make_game("roth", [], [("", ["Ann"]), ("", ["Bo"])])
    ann = players.find_player(db, "Ann").id
    form = posted(client.get(f"/players/{ann}/rename"))
    players.rename_player(db, ann, 0, "Annie")
    refused = client.post(f"/players/{ann}/rename", data=form | {"name": "Anna"}, follow_redirects=True)
    assert "This player was renamed on another phone (now “Annie”), so nothing was changed." in shown(refused)
    assert players.player(db, ann)[0].name == "Annie"


def test_a_game_changed_on_another_phone(client, db, make_game):
    game = make_game("roth", [ROUND])
    form = posted(client.get(f"/games/{game.id}/end"))
    games.add_round(db, game.id, game.revision, 2, ROUND)
    refused = shown(client.post(f"/games/{game.id}/end", data=form, follow_redirects=True))
    assert (
        "Someone changed this game on another phone since you opened this page, so nothing was saved."
        in refused
    )
    assert "Meanwhile: Round 2 entered." in refused
    assert not game_model.load_game(db, game.id).finished


def test_a_page_posted_without_its_revision(client, db, make_game):
    game = make_game("roth", [ROUND])
    form = posted(client.get(f"/games/{game.id}/end"))
    del form["revision"]
    refused = shown(client.post(f"/games/{game.id}/end", data=form, follow_redirects=True))
    assert "This page is out of date: nothing was saved. Here is the game as it stands." in refused
    assert not game_model.load_game(db, game.id).finished


def test_an_undo_that_is_no_longer_the_last_change(client, db, make_game):
    game = make_game("roth", [])
    page = client.get(f"/games/{game.id}/rounds/new")
    values = posted(page) | {"went_out": "0", "teams-0-melded_points": "300", "teams-1-melded_points": "100"}
    checked = client.get(client.post(page.request.path, data=values | {"action": "check"}).location)
    assert client.post(page.request.path, data=posted(checked) | {"action": "save"}).status_code == 303
    undo = posted(client.get(f"/games/{game.id}"))
    played = game_model.load_game(db, game.id)
    games.end_game(db, game.id, played.revision)  # another phone ends the game meanwhile
    games.reopen_game(db, game.id, played.revision + 1)
    undo["revision"] = str(played.revision + 2)  # even with the newest revision
    refused = shown(client.post(f"/games/{game.id}/undo", data=undo, follow_redirects=True))
    assert "Round 1 is no longer this game’s last change: it can’t be undone." in refused
    assert len(game_model.load_game(db, game.id).rounds) == 1


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])  # the app is only read
@given(st.text(min_size=1, max_size=120).filter(lambda m: ": " not in m))
def test_a_message_about_no_field_reaches_the_form_whole(app, message):
    with app.test_request_context():
        form = HouseRulesForm(meta={"csrf": False})
    show_error(form, message)
    # whole: only a capital first letter and a full stop at the end are added
    assert form.form_errors[-1] == message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
