"""Every house's rules through the app, with real requests on a real database: the editor's
new values, the pages that show them, rounds that use them, variants, tables and imports."""

import json
import re

import pytest

from scorekeeper.exchange import VERSION, importer
from scorekeeper.exchange.jsonfile import export_history
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import game_model, games, rulesets
from scorekeeper.services.schema import migrate
from scorekeeper.storage.db import connect

from ..helpers import posted, text
from .test_games import enter, fields, hidden, page_after, stored
from .test_house_rules import error_of, save, saved


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False
    return app


# --- the editor --------------------------------------------------------------------------------

EVERY_OPTION = {
    "name": "Every option",
    # red 3s laid down: 50, but 100 for the team that went out, −50 for one that melded nothing
    "red_three_melded": "50",
    "red_three_melded_cases-went_out": "100",
    "red_three_melded_cases-not_melded": "−50",
    # red 3s caught count only when another team goes out (a minus on the full keyboard)
    "red_three_sign": "lose",
    "red_three": "0",
    "red_three_cases-other_went_out": "-500",
    "red_threes_all_count": "10",
    "red_threes_all": "2000",
    "red_three_book": "1000",
    "black_three_book": "300",
    "black_three_out": "5",
    "going_out_concealed": "100",
    "first_meld_books": "none\nnone\n1 book",
    "books_any_to_go_out": "3",
    "deal_decks": "1 per player + 1",
    "deal_hand": "13",
    "deal_foot": "11",
    "deal_jokers": "",  # two, as a deck comes
}


def test_every_new_value_is_typed_saved_and_shown_back(client, db):
    values = posted(client.get("/rules/new?from=tablet")) | EVERY_OPTION
    assert save(client, values) == "/rules/house-1"
    rules = saved(db)
    assert rules.red_three_melded == {
        "went_out": 100,
        "other_went_out": 50,
        "nobody_out": 50,
        "not_melded": -50,
    }
    assert rules.red_three == {"went_out": 0, "other_went_out": -500, "nobody_out": 0}
    assert rules.red_threes_all == {"count": 10, "bonus": 2000}
    assert (rules.red_three_book, rules.black_three_book, rules.black_three_out) == (1000, 300, 5)
    assert rules.going_out_concealed == 100
    assert rules.first_meld_books == ({}, {}, {"any": 1})
    assert rules.books_to_go_out == {"clean": 2, "dirty": 2, "any": 3}
    assert rules.deal == {"decks": {"per_player": 1, "extra": 1}, "hand": 13, "foot": 11, "jokers": 2}
    # the editor shows them as they were typed (the usual value beside, the cases that differ)
    again = posted(client.get("/rules/house-1/edit"))
    assert again["red_three_melded"] == "50" and again["red_three_melded_cases-went_out"] == "100"
    assert again["red_three_melded_cases-not_melded"] == "-50"
    assert again["red_three_melded_cases-other_went_out"] == ""
    assert again["red_three"] == "0" and again["red_three_cases-other_went_out"] == "-500"
    assert again["first_meld_books"] == "none\nnone\n1 any"
    assert again["deal_decks"] == "1 per player + 1" and again["deal_jokers"] == "2"
    # and saving them unchanged changes nothing
    assert save(client, again, "/rules/house-1/edit") == "/rules/house-1"
    assert saved(db) == rules


def test_the_rules_page_says_each_new_value(client, db):
    save(client, posted(client.get("/rules/new?from=tablet")) | EVERY_OPTION)
    page = text(client.get("/rules/house-1"))
    assert (
        "Red 3 laid down</th><td>+100 each for the team that went out, else +50; "
        "−50 for a team that melded nothing" in page
    )
    assert "Red 3 caught in hand or foot</th><td>−500 each when another team went out, else 0" in page
    assert "All 10 red 3s laid down</th><td>+2,000 more" in page
    assert "Book of red 3s</th><td>+1,000 each" in page and "Book of black 3s</th><td>+300 each" in page
    assert "Black 3 melded going out</th><td>+5 each" in page
    assert "Going out concealed</th><td>+100 more" in page
    assert '<th scope="col">First meld</th>' in page and "<td>1 book of any kind</td>" in page
    assert "2 clean + 2 dirty books, 3 books in all" in page
    assert "13 cards in a hand and 11 in a foot; 2 jokers in a deck." in page
    # the deck for a few tables: players + 1 decks, 54 cards each, 2,900 points in five decks
    assert "<td>4</td><td>5</td><td>2,900</td>" in page


@pytest.mark.parametrize(
    "typed, field_id, message",
    [
        (
            {"deal_decks": "lots"},
            "deal_decks",
            "“lots”: write a number of decks (5), 1 per player + 1, or by players like 2: 3, 4: 5.",
        ),
        (
            {"deal_decks": "4: 5, 2: 3", "deal_hand": "11", "deal_foot": "11"},
            "deal_decks",
            "Pair 2: players must rise (2 comes after 4).",
        ),
        ({"deal_decks": "5", "deal_hand": "", "deal_foot": "11"}, "deal_hand", "Enter a number."),
        (
            {"deal_decks": "5", "deal_hand": "11", "deal_foot": "11", "deal_jokers": "9"},
            "deal_jokers",
            "At most 4.",
        ),
        (
            {"red_three_cases-nobody_out": "lots"},
            "red_three_cases-nobody_out",
            "Enter a whole number, like 120.",
        ),
        (
            {"first_meld_books": "1 sevens"},
            "first_meld_books",
            "Sevens: not a kind of book these rules score (clean, dirty).",
        ),
        (
            {"first_meld_books": "one clean"},
            "first_meld_books",
            "“one clean”: write a number and a kind of book, like 2 clean.",
        ),
        ({"books_any_to_go_out": "100"}, "books_any_to_go_out", "At most 99."),
        (
            {"red_threes_all_count": "4", "red_threes_all": "x"},
            "red_threes_all",
            "Enter a whole number, like 120.",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 30 else None,
)
def test_a_wrong_new_value_is_refused_next_to_its_field(client, db, typed, field_id, message):
    values = posted(client.get("/rules/new?from=tablet")) | {"name": "Ours"} | typed
    response = client.post("/rules/new?from=tablet", data=values)
    assert response.status_code == 422
    assert error_of(response, field_id) == message
    assert posted(response) == values  # everything typed is kept
    assert db["house_rules"].count == 0


def test_a_house_rules_file_with_every_option_imports(client, db):
    data = {**RULESETS["canasta"].to_dict(), "name": "Our Canasta"}
    response = client.post(
        "/rules/import",
        data={"file": (__import__("io").BytesIO(json.dumps(data).encode()), "ours.json"), "name": ""},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    assert saved(db).to_dict() == data


# --- rules pages and variants --------------------------------------------------------------------


def test_a_preset_shows_its_variants(client):
    page = text(client.get("/rules/friends-family-2p"))
    assert (
        '<a class="button secondary" href="/rules/friends-family">Four players: 4 clean + 5 dirty books</a>'
        in page
    )
    assert 'href="/rules/friends-family-2p" aria-current="page">Two players' in page
    assert "15 cards in a hand and 15 in a foot" in page
    assert "Variants" not in text(client.get("/rules/roth"))


def test_canasta_page_cites_its_numbers(client):
    page = text(client.get("/rules/canasta"))
    assert "Red 3 laid down</th><td>+100 each; −100 for a team that melded nothing" in page
    assert "All 4 red 3s laid down</th><td>+400 more; −400 for a team that melded nothing" in page
    assert "Going out concealed</th><td>+100 more" in page
    assert (
        "<td>below 0</td>\n      <td>15</td>" in page and "<td>3,000 or more</td>\n      <td>120</td>" in page
    )
    assert "1 canasta of any kind." in page and "11 cards in a hand;" in page
    assert "reaches 5,000" in page


def test_a_game_starts_under_the_chosen_variant(client, db):
    form = posted(client.get("/games/new?rules=friends-family"))
    assert form["rules_key"] == "friends-family" and form["variant"] == "friends-family"
    teams = {"teams-0-players-0": "Ann", "teams-1-players-0": "Cy"}
    # another variant picked: its values are loaded, nothing starts yet
    loaded = client.post("/games/new", data={**form, **teams, "variant": "friends-family-2p"})
    assert loaded.status_code == 200 and db["games"].count == 0
    assert "The rules of Friends & Family online edition, two players are loaded" in text(loaded)
    again = posted(loaded)
    assert again["rules-book_clean-to_go_out"] == "3" and again["rules-deal_hand"] == "15"
    started = client.post("/games/new", data=again)
    assert started.status_code == 303
    game = stored(db, 1)
    assert game.rules == RULESETS["friends-family-2p"] and game.rules_key == "friends-family-2p"
    # a variant of another preset is not a choice of this one: the preset itself is taken
    odd = client.post(
        "/games/new", data={**form, **teams, "rules_key": "roth", "variant": "friends-family-2p"}
    )
    assert "The rules of Roth family house rules (to 10,000) are loaded" in text(odd)


# --- rounds -------------------------------------------------------------------------------------


def start(client, rules, teams):
    data = posted(client.get(f"/games/new?rules={rules}"))
    for t, players in enumerate(teams):
        for p, name in enumerate(players):
            data[f"teams-{t}-players-{p}"] = name
    response = client.post("/games/new", data=data)
    assert response.status_code == 303, re.findall(r'class="error"[^>]*>(.*?)<', text(response))
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_going_out_concealed_is_one_of_who_went_out(client, db):
    game_id = start(client, "canasta", [["Ann", "Bo"], ["Cy", "Di"]])
    page = text(client.get(f"/games/{game_id}/rounds/new"))
    assert 'value="0c"' in page and "Ann & Bo went out concealed" in page
    assert "going out takes 1 canasta of any kind" in page
    enter(
        client,
        game_id,
        {"book_clean": 1, "melded_points": 270, "red_threes_melded": 1},
        {"melded_points": 0, "unplayed_points": 40, "red_threes_melded": 1},
        went_out="0c",
    )
    game = stored(db, game_id)
    assert game.rounds[0].entries[0].went_out and game.rounds[0].entries[0].went_out_concealed
    # Ann & Bo: 500 + 270 + 100 red 3 + 100 out + 100 concealed = 1070;  Cy & Di: −40 − 100 (no meld) = −140
    assert game.standings.totals == [1070, -140]
    fix = text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert re.search(r'<input checked id="went_out-1" name="went_out" type="radio" value="0c">', fix)


def test_the_first_meld_tick_is_asked_saved_and_checked(client, db):
    game_id = start(client, "partnership", [["Ann", "Bo"], ["Cy", "Di"]])
    shown = text(client.get(f"/games/{game_id}"))
    assert "The first meld must hold <strong>1 clean + 1 dirty books</strong>." in shown
    url = f"/games/{game_id}/rounds/new"
    form = client.get(url)
    label = "First meld held 1 clean and 1 dirty books"
    assert '<label class="choice"><input id="teams-0-first_meld_books"' in text(form)
    assert re.search(rf'type="checkbox" value="y"> {label}</label>', text(form))
    a = {"book_clean": 1, "book_dirty": 1, "melded_points": 400}
    b = {"book_clean": 1, "book_dirty": 1, "melded_points": 350}
    data = {**fields(a, b), "revision": hidden(form, "revision"), "teams-0-first_meld_books": "y"}
    review = text(page_after(client, url, {**data, "action": "check"}))
    # only Cy & Di did not tick
    # the warning names the tick as the form labels it
    assert f"Did Cy & Di’s first meld hold 1 clean and 1 dirty books? Tick “{label}” if it did." in review
    assert "Did Ann & Bo’s" not in review
    enter(client, game_id, a, {**b, "first_meld_books": "y"}, expect_warnings=True)  # saved anyway
    entries = stored(db, game_id).rounds[0].entries
    assert [e.first_meld_books for e in entries] == [False, True]
    page = text(client.get(f"/games/{game_id}/rounds/1/edit"))
    assert 'id="teams-1-first_meld_books" name="teams-1-first_meld_books" type="checkbox"' in page
    assert 'checked id="teams-1-first_meld_books"' in page


def test_the_deck_follows_the_table(client, db):
    """Partnership: players + 1 decks. 1,900 points melded are more than three decks hold
    (two players: 1,740), not seven (six players: 4,060)."""
    round_ = ({"book_clean": 2, "book_dirty": 2, "melded_points": 1900, "first_meld_books": "y"}, {})
    two = start(client, "partnership", [["Ann"], ["Cy"]])
    form = client.get(f"/games/{two}/rounds/new")
    data = {**fields(*round_, went_out="0"), "revision": hidden(form, "revision")}
    review = text(page_after(client, f"/games/{two}/rounds/new", {**data, "action": "check"}))
    assert "more than the whole deck holds (1,740 points of cards in 3 decks)" in review
    six = start(client, "partnership", [["Ann", "Bo", "Eve"], ["Cy", "Di", "Fay"]])
    enter(client, six, *round_, went_out="0", expect_warnings=True)  # going out short of 3 + 4 books
    review = text(client.get(f"/games/{six}"))
    assert stored(db, six).standings.totals[0] == 1000 + 600 + 1900 + 100


def test_the_card_helper_stops_at_the_deck(client, db):
    game_id = start(client, "tablet", [["Ann", "Bo"], ["Cy", "Di"]])  # five decks: ten jokers
    url = f"/games/{game_id}/rounds/new"
    form = client.get(url)
    data = {
        **fields({"left_count_0": "11"}, {}),
        "revision": hidden(form, "revision"),
        "action": "add-left-0",
    }
    page = page_after(client, url, data)
    assert error_of(page, "teams-0-left_count_0") == "At most 10."
    assert db["rounds"].count == 0


# --- tables and imports ----------------------------------------------------------------------------


def test_six_teams_of_four_start_and_import(client, db, tmp_path):
    teams = [[f"P{t}{p}" for p in range(4)] for t in range(6)]
    game_id = start(client, "tablet", teams)
    game = stored(db, game_id)
    assert [len(t.players) for t in game.teams] == [4] * 6
    assert game.teams[0].name == "P00 & P01 & P02 & P03"
    games.add_round(db, game.id, game.revision, 1, [TeamRound(melded_points=50 * (i + 1)) for i in range(6)])
    exported = export_history(db)
    # into a fresh database: the importer takes the engine's tables
    migrate(tmp_path / "fresh.db")
    fresh = connect(tmp_path / "fresh.db")
    try:
        summary = importer.import_history(fresh, exported)
        assert summary.games_added == 1
        (imported,) = fresh.execute("SELECT id FROM games").fetchone()
        assert stored(fresh, imported).standings.totals == [50, 100, 150, 200, 250, 300]
    finally:
        fresh.close()


@pytest.mark.parametrize(
    "teams, message",
    [
        ([["A"], ["B"], ["C"], ["D"], ["E"], ["F"], ["G"]], "games[0].teams: at most 6 entries, not 7"),
        ([["A", "B", "C", "D", "E"], ["F"]], "games[0].teams[0].players: at most 4 entries, not 5"),
        ([["A"]], "games[0].teams: needs at least 2 entries"),
    ],
)
def test_the_importer_refuses_a_table_the_engine_does_not_score(db, teams, message):
    data = {
        "format": "scorekeeper-history",
        "version": VERSION,
        "players": [],
        "house_rules": [],
        "games": [
            {
                "uid": "x1",
                "created_at": "2026-01-05T19:30:00+00:00",
                "finished_at": None,
                "ended_by_hand": False,
                "rules_key": "tablet",
                "rules": RULESETS["tablet"].to_dict(),
                "teams": [{"name": "", "players": players} for players in teams],
                "first_dealer": None,
                "rounds": [],
            }
        ],
    }
    with pytest.raises(ValueError) as refused:
        importer.check_history(data)
    assert str(refused.value).startswith(message), str(refused.value)


def test_a_canasta_game_exports_and_imports_with_its_new_entries(db, make_game):
    rounds = [
        [
            TeamRound(
                books={"clean": 1},
                melded_points=270,
                red_threes_melded=4,
                went_out=True,
                went_out_concealed=True,
            ),
            TeamRound(unplayed_points=40, black_threes=1),
        ],
        [
            TeamRound(books={"dirty": 1}, melded_points=200, unplayed_points=30),
            TeamRound(books={"clean": 1}, melded_points=300, black_threes_out=3, went_out=True),
        ],
    ]
    game = make_game("canasta", rounds)
    exported = export_history(db)
    assert exported["games"][0]["rounds"][0]["entries"][0]["went_out_concealed"] is True
    assert exported["games"][0]["rounds"][1]["entries"][1]["black_threes_out"] == 3
    uid = game.uid
    db.execute("UPDATE games SET uid = 'old' WHERE id = ?", [game.id])
    importer.import_history(db, exported)
    (imported_id,) = db.execute("SELECT id FROM games WHERE uid = ?", [uid]).fetchone()
    imported = game_model.load_game(db, imported_id)
    assert [list(r.entries) for r in imported.rounds] == rounds
    assert imported.standings.totals == game.standings.totals
    assert rulesets.get_rule_set(db, "canasta").rules == imported.rules
