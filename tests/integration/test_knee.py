"""Hand, Knee and Foot as a family's own house rules (issue 23), through the app:
the worked example in docs/ imported, its cheat sheet, round form, blank and game
sheets saying the knee, a round scored as worked by hand, and the knee typed in
the editor (a bad one refused next to its field, nothing written)."""

import dataclasses
from pathlib import Path

import pytest

from scorekeeper.scoring import RULESETS, RuleSet
from scorekeeper.services import rulesets

from .test_every_house import start
from .test_games import enter
from .test_house_rules import error_of, house_rules_count, posted, save, saved, upload
from .test_sheets import pdf, read
from .test_words import visible

EXAMPLE = Path(__file__).parents[2] / "docs" / "hand-knee-and-foot.json"


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


@pytest.fixture
def hkf(client, db):
    """The docs' example file, imported as a house's rules; its key."""
    response = upload(client, EXAMPLE.read_bytes(), "hand-knee-and-foot.json")
    assert response.status_code == 303, response.get_data(as_text=True)
    key = response.headers["Location"].rsplit("/", 1)[1]
    assert saved(db, key) == RuleSet.from_json(EXAMPLE.read_text(encoding="utf-8"))
    return key


def one_line(data):
    return " ".join(read(data)[1].split())


def test_the_example_imported_is_downloaded_byte_for_byte(client, hkf):
    response = client.get(f"/rules/{hkf}.json")
    assert response.status_code == 200
    assert response.data == EXAMPLE.read_bytes()


def test_its_cheat_sheet_and_blank_sheet_say_the_knee(client, hkf):
    page = visible(client.get(f"/rules/{hkf}"))
    assert "15 cards in a hand, 13 in a knee and 11 in a foot; 2 jokers in a deck." in page
    assert "Red 3 caught in hand, knee or foot" in page
    blank = pdf(client, f"/rules/{hkf}/blank.pdf")
    assert "Deal: 15 + 13 + 11 cards (hand, knee and foot)." in one_line(blank)
    assert len(read(blank)[0].pages) == 1


def test_a_round_under_it_scores_as_worked_by_hand(client, hkf):
    """The round of tests/unit/test_knee.py, typed on the round form."""
    game_id = start(client, hkf, [["Ann", "Bo"], ["Cy", "Di"]])
    form = visible(client.get(f"/games/{game_id}/rounds/new"))
    assert "left in hand, knee and foot" in form.lower() and "Books of red 3s" in form
    enter(
        client,
        game_id,
        {
            "book_clean": 2,
            "book_dirty": 2,
            "melded_points": 620,
            "red_threes_melded": 2,
            "red_three_books": 1,
        },
        {
            "book_dirty": 1,
            "melded_points": 350,
            "unplayed_points": 85,
            "red_threes": 1,
            "black_threes": 2,
            "red_threes_melded": 1,
        },
        went_out="0",
    )
    data = client.get(f"/games/{game_id}.json").get_json()
    # 1,000 + 600 + 620 + 200 + 1,000 + 100; 300 + 350 − 85 − 500 − 10 + 100
    assert data["rounds"][0]["scores"] == [3520, 155]
    sheet = one_line(pdf(client, f"/games/{game_id}/sheet.pdf"))
    assert "Deal: 15 + 13 + 11 cards (hand, knee and foot), 6 decks for 4 players." in sheet
    assert "3,520" in sheet and "155" in sheet


def test_the_editor_shows_the_knee_and_saves_it_back_unchanged(client, db, hkf):
    url = f"/rules/{hkf}/edit"
    values = posted(client.get(url))
    assert (values["deal_hand"], values["deal_knee"], values["deal_foot"]) == ("15", "13", "11")
    assert save(client, values | {"going_out": "150"}, url) == f"/rules/{hkf}"
    assert saved(db, hkf).deal["knee"] == 13 and saved(db, hkf).going_out == 150


@pytest.mark.parametrize(
    ("knee", "message"),
    [("51", "At most 50."), ("-1", "Can’t be negative."), ("thirteen", "Enter a whole number, like 120.")],
)
def test_a_bad_knee_is_refused_next_to_its_field(client, db, hkf, knee, message):
    url = f"/rules/{hkf}/edit"
    before = saved(db, hkf)
    values = posted(client.get(url)) | {"deal_knee": knee, "going_out": "150"}
    response = client.post(url, data=values)
    assert response.status_code == 422
    assert error_of(response, "deal_knee") == message
    assert posted(response) == values  # everything typed is kept
    assert saved(db, hkf) == before  # nothing written


def test_a_knee_typed_in_new_house_rules(client, db):
    values = posted(client.get("/rules/new?from=tablet")) | {
        "name": "Knees",
        "deal_decks": "6",
        "deal_hand": "15",
        "deal_knee": "13",
        "words_piles": "hand, knee, foot",
    }
    key = save(client, values, "/rules/new?from=tablet").rsplit("/", 1)[1]
    assert saved(db, key).deal == {"decks": 6, "hand": 15, "knee": 13, "foot": 11, "jokers": 2}
    assert "13 in a knee" in visible(client.get(f"/rules/{key}"))


def test_house_rules_without_a_knee_are_saved_and_written_as_before(client, db):
    """A copy of every preset with a deal, edited and saved as it is, has no knee and
    downloads as the file it was."""
    for preset in [r for r in RULESETS.values() if r.deal]:
        rules = dataclasses.replace(preset, name=f"Ours {preset.name}"[:80])
        key = rulesets.save_house_rules(db, rules)
        values = posted(client.get(f"/rules/{key}/edit"))
        assert values["deal_knee"] == "0"
        save(client, values, f"/rules/{key}/edit")
        assert client.get(f"/rules/{key}.json").data == rules.to_json().encode()
    assert house_rules_count(db) == len([r for r in RULESETS.values() if r.deal])
