"""Buraco and Burraco through the app (issue 47): the round form's tick for a morto
never taken, a round scored as worked by hand (tests/unit/test_buraco.py), the
cheat sheet's packet rows, and the editor saving the packet's values back."""

import pytest

from scorekeeper.scoring import RULESETS

from .test_every_house import start
from .test_games import enter, fields, hidden
from .test_house_rules import posted, save, saved
from .test_words import visible


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


def test_a_buraco_round_with_a_morto_never_taken(client):
    game_id = start(client, "buraco", [["Ann", "Bo"], ["Cy", "Di"]])
    form = visible(client.get(f"/games/{game_id}/rounds/new"))
    assert "Never took the morto" in form
    assert form.count("Taken but not played counts as not taken too.") == 2  # once a team
    enter(
        client,
        game_id,
        {"book_clean": 1, "melded_points": 300},
        {"melded_points": 60, "unplayed_points": 85, "packet_not_taken": "y"},
        went_out="0",
    )
    data = client.get(f"/games/{game_id}.json").get_json()
    # 300 + 200 clean + 100 batida; 60 − 85 − 100 for the morto never taken
    assert data["rounds"][0]["scores"] == [600, -125]
    assert data["rounds"][0]["entries"][1]["packet_not_taken"] is True


def test_going_out_without_the_morto_is_refused_next_to_the_tick(client):
    game_id = start(client, "buraco", [["Ann", "Bo"], ["Cy", "Di"]])
    url = f"/games/{game_id}/rounds/new"
    form = client.get(url)
    data = fields({"book_clean": 1, "melded_points": 300, "packet_not_taken": "y"}, {}, went_out="0")
    data |= {"revision": hidden(form, "revision"), "round_id": hidden(form, "round_id")}
    response = client.post(url, data={**data, "action": "check"})
    page = client.get(response.headers["Location"])  # the form again, with the check's error
    assert page.status_code == 422 and "went out, but never took the morto" in page.get_data(as_text=True)


def test_a_game_without_a_second_packet_asks_nothing_of_it(client):
    game_id = start(client, "tablet", [["Ann", "Bo"], ["Cy", "Di"]])
    assert "packet_not_taken" not in client.get(f"/games/{game_id}/rounds/new").get_data(as_text=True)


def test_the_cheat_sheets_say_the_packet(client):
    page = visible(client.get("/rules/burraco"))
    assert "Pozzetto never taken" in page and "its cards count against you" in page
    assert "Burraco (FIBUR)" in page
    page = visible(client.get("/rules/buraco"))
    assert "Morto taken but not played" in page and "counts as never taken" in page


@pytest.mark.parametrize("key", ["buraco", "burraco", "burraco-torneo"])
def test_the_editor_saves_a_preset_back_unchanged(client, db, key):
    values = posted(client.get(f"/rules/new?from={key}"))
    assert values["packet_not_taken"] == "100" and values["packet_not_taken_sign"] == "lose"
    name = f"Our {key}"
    location = save(client, values | {"name": name}, "/rules/new")
    assert saved(db, location.rsplit("/", 1)[1]).to_dict() == RULESETS[key].to_dict() | {"name": name}


def test_the_editor_changes_the_packet_values(client, db):
    values = posted(client.get("/rules/new?from=tablet"))
    location = save(client, values | {"name": "Foot or pay"}, "/rules/new")
    key = location.rsplit("/", 1)[1]
    url = f"/rules/{key}/edit"
    values = posted(client.get(url)) | {"packet_not_taken": "300", "packet_unplayed": "not_taken"}
    assert save(client, values, url) == f"/rules/{key}"
    rules = saved(db, key)
    assert (rules.packet_not_taken, rules.packet_unplayed) == (-300, "not_taken")
