"""Games from paper (issue 41): the day a game was played, a paper sheet typed in, games
kept as their scores alone, a corrected date; real requests on a real SQLite file."""

import datetime
import html
import io
import json
import re
import subprocess

import pytest

from scorekeeper.exchange import importer, jsonfile
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import game_model, summaries
from scorekeeper.services.evenings import evening
from scorekeeper.services.schema import migrate

from ..helpers import TEAMS, paper_rounds, posted, text

# A four-round game of Friends & Family as a paper sheet has it, team by team:
# (books clean, dirty, melded, left, red 3s, black 3s, went out). The round scores,
# worked by hand (clean 500, dirty 300, going out 100, a red 3 −500 when another team
# went out, a black 3 −5): 4,810 / 2,005; 2,010 / 4,750; 4,685 / 2,760; 1,600 / 4,840.
SHEET = [
    ((4, 5, 1210, 0, 0, 0, 1), (2, 3, 690, 85, 1, 0, 0)),
    ((2, 2, 560, 140, 0, 2, 0), (4, 5, 1150, 0, 0, 0, 1)),
    ((4, 5, 1085, 0, 1, 0, 1), (3, 2, 720, 60, 0, 0, 0)),
    ((1, 3, 455, 255, 0, 0, 0), (4, 5, 1240, 0, 0, 0, 1)),
]
LINES = (
    "book_clean",
    "book_dirty",
    "melded_points",
    "unplayed_points",
    "red_threes",
    "black_threes",
    "went_out",
)
SCORES = [[4810, 2005], [2010, 4750], [4685, 2760], [1600, 4840]]
# The running totals after each round, added up by hand from SCORES.
TOTALS = [[4810, 2005], [6820, 6755], [11505, 9515], [13105, 14355]]


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # posted() carries no token then: the forms are the subject
    return app


def start(client, rules="friends-family", status=303, **extra):
    page = client.get(f"/games/new?rules={rules}")
    response = client.post("/games/new", data={**posted(page), **TEAMS, **extra})
    assert response.status_code == status, text(response)[:3000]
    return response


def sheet_values(rounds=SHEET, sheet_scores=None, sheet_totals=None):
    """The paper page's boxes for these rounds (a blank for a 0, as a person leaves it),
    with the round scores and running totals the family wrote (None: left empty)."""
    data = {}
    for r, teams in enumerate(rounds):
        for t, values in enumerate(teams):
            for name, value in zip(LINES, values):
                data[f"rounds-{r}-teams-{t}-{name}"] = str(value) if value else ""
            if sheet_scores and sheet_scores[r][t] is not None:
                data[f"rounds-{r}-teams-{t}-sheet_score"] = str(sheet_scores[r][t])
            if sheet_totals and sheet_totals[r][t] is not None:
                data[f"rounds-{r}-teams-{t}-sheet_total"] = str(sheet_totals[r][t])
    return data


def check(client, game_id, values, status=200):
    page = client.get(f"/games/{game_id}/paper")
    response = client.post(f"/games/{game_id}/paper", data={**posted(page), **values, "action": "check"})
    assert response.status_code == status, text(response)[:3000]
    return response


def stored_game(db, game_id):
    return game_model.load_game(db, game_id)


# --- the day it was played -------------------------------------------------------------------


def test_a_game_played_last_night_is_dated_last_night_and_lands_on_that_night_and_year(client, db, zone):
    zone("America/Los_Angeles")  # 21:30 there on New Year's Eve is the next year in UTC
    response = start(client, kept="sheet", played_day="2025-12-31", played_time="21:30")
    assert response.headers["Location"] == "/games/1/paper"  # played already: its sheet comes in
    game = stored_game(db, 1)
    assert game.played_at == "2026-01-01T05:30:00+00:00"  # 21:30 PST, stored in UTC
    entered = datetime.datetime.fromisoformat(game.created_at)
    assert abs(datetime.datetime.now(datetime.UTC) - entered) < datetime.timedelta(minutes=5)
    assert game.paper == "sheet"
    assert "played 2025-12-31" in text(client.get("/games/1"))
    values = {**sheet_values(), "action": "check"}
    review = check(client, 1, values)
    assert client.post("/games/1/paper", data={**posted(review), "action": "save"}).status_code == 303
    assert db.execute("SELECT night, games FROM nights").fetchall() == [("2025-12-31", 1)]
    assert client.get("/years/2025.json").get_json()["games"] == 1
    assert client.get("/years/2026.json").get_json()["games"] == 0
    # the history's days are the days played
    listed = text(client.get("/history?since=2025-12-31&until=2025-12-31"))
    assert 'href="/games/1"' in listed and "2025-12-31 · Friends & Family" in listed
    today = datetime.date.today().isoformat()
    assert 'href="/games/1"' not in text(client.get(f"/history?since={today}&until={today}"))


@pytest.mark.parametrize(
    "typed, message",
    [
        ({"played_day": "2999-01-01"}, "That is later than now"),
        ({"played_day": "2026-02-30"}, "Enter a day as year-month-day"),
        ({"played_day": "2025-05-01", "played_time": "25:61"}, "Enter a time as hours:minutes"),
    ],
)
def test_a_day_that_cannot_be_when_it_was_played_is_refused_beside_it(client, db, typed, message):
    response = start(client, status=422, kept="sheet", **typed)
    page = text(response)
    assert message in page
    field = "played_time" if "time" in message else "played_day"
    assert re.search(rf'<p class="error" id="{field}-error">[^<]*{message}', page)
    assert 'value="Ann"' in page and f'value="{typed["played_day"]}"' in page  # what was typed stays
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0


def test_a_game_played_now_on_paper_offers_its_sheet_and_its_typing_page(client, db):
    response = start(client, kept="sheet")
    assert response.headers["Location"] == "/games/1"  # to be played: print its sheet first
    page = text(client.get("/games/1"))
    assert "/games/1/blank.pdf" in page and "Print its sheet" in page
    assert "/games/1/paper" in page and "Type in the sheet" in page


# --- correcting the date -------------------------------------------------------------------


def table_rows(db, table):
    return sorted(db.execute(f"SELECT * FROM {table}").fetchall())


def summary_tables(db):
    names = ("player_games", "player_stats", "nights", "night_players", "year_pairs", "game_records")
    names += ("player_ratings", "pair_games")
    return {name: table_rows(db, name) for name in names}


def test_changing_the_date_moves_the_game_between_nights_and_years_and_is_listed(client, db, make_game):
    done = make_game("friends-family", paper_rounds(SHEET), day="2026-01-05")
    make_game("friends-family", paper_rounds(SHEET), day="2026-01-07")
    assert [n for n, _ in db.execute("SELECT night, games FROM nights ORDER BY night")] == [
        "2026-01-05",
        "2026-01-07",
    ]
    page = client.get(f"/games/{done.id}/played")
    assert 'value="2026-01-05"' in text(page) and 'value="19:30"' in text(page)
    response = client.post(
        f"/games/{done.id}/played", data={**posted(page), "played_day": "2025-11-28", "played_time": "20:00"}
    )
    assert response.status_code == 303
    nights = db.execute("SELECT night, games FROM nights ORDER BY night").fetchall()
    assert nights == [("2025-11-28", 1), ("2026-01-07", 1)]
    assert client.get("/years/2025.json").get_json()["games"] == 1
    assert client.get("/years/2026.json").get_json()["games"] == 1
    shown = text(client.get(f"/games/{done.id}"))
    assert "played 2025-11-28" in shown
    assert "Date corrected: played 2025-11-28 20:00, not 2026-01-05 19:30." in shown
    # what the change kept is what every summary made again from nothing holds
    from scorekeeper.services import ratings

    ratings.catch_up(db)
    kept = summary_tables(db)
    db.execute("BEGIN IMMEDIATE")
    summaries.rebuild(db)
    db.execute("COMMIT")
    assert summary_tables(db) == kept


def test_a_date_change_from_a_stale_page_is_refused_and_nothing_moves(client, db, make_game):
    game = make_game("friends-family", paper_rounds(SHEET), day="2026-01-05")
    page = client.get(f"/games/{game.id}/played")
    client.post(f"/games/{game.id}/reopen", data={"revision": game.revision})  # another phone
    response = client.post(f"/games/{game.id}/played", data={**posted(page), "played_day": "2025-01-01"})
    assert response.status_code == 303
    shown = text(client.get(f"/games/{game.id}"))
    assert "Someone changed this game on another phone" in shown and "played 2026-01-05" in shown


def test_a_table_of_an_evening_stays_on_its_night(client, db):
    from scorekeeper.services import evening_tables, rulesets

    night = evening(datetime.datetime.now(datetime.UTC).isoformat())
    entry = rulesets.get_rule_set(db, "friends-family")
    evening_tables.start_sitting(db, night, entry, "rotate", [[["Ann", "Bo"], ["Cy", "Di"]]])
    page = client.get("/games/1/played")
    response = client.post("/games/1/played", data={**posted(page), "played_day": "2025-06-01"})
    assert response.status_code == 303
    assert f"a table of the evening of {night}: it stays on that night" in text(client.get("/games/1"))
    assert stored_game(db, 1).played_at == stored_game(db, 1).created_at


# --- a paper sheet typed in -----------------------------------------------------------------


def test_a_sheet_that_says_0_where_the_rules_make_a_score_is_pointed_at(client, db):
    """A 0 written on the sheet is a number written, not a box left empty (issue 57)."""
    start(client, kept="sheet", played_day="2025-12-30")
    zero = [[4810, 0], [None, None], [None, None], [None, None]]  # Cy & Di's round 1: 2,005
    page = text(check(client, 1, sheet_values(sheet_scores=zero)))
    message = "Cy & Di: the sheet says 0; these rules make it 2,005, which is what is saved."
    assert f'<p class="warning" id="rounds-0-teams-1-sheet_score-note">{message}</p>' in page


def test_a_whole_sheet_is_checked_a_wrong_paper_sum_pointed_at_and_saved_at_once(client, db):
    start(client, kept="sheet", played_day="2025-12-30")
    form = text(client.get("/games/1/paper"))
    # the sheet's lines, in its order, for each team of each of the rules' four rounds
    boxes = re.findall(r'name="(rounds-0-teams-0-[a-z_]+)"', form)
    sums = ["rounds-0-teams-0-sheet_score", "rounds-0-teams-0-sheet_total"]
    assert boxes == [f"rounds-0-teams-0-{n}" for n in LINES] + sums
    # labelled as the printed sheet labels them
    assert '<label for="rounds-0-teams-0-sheet_score">Round score</label>' in form
    assert '<label for="rounds-0-teams-0-sheet_total">Total</label>' in form
    assert len(re.findall(r'<section class="paper-round"', form)) == 4
    wrong = [[4810, None], [None, 4750], [4635, 2760], [None, None]]  # round 3: 4,635 on paper
    review = check(client, 1, sheet_values(sheet_scores=wrong))
    page = text(review)
    message = "Ann & Bo: the sheet says 4,635; these rules make it 4,685, which is what is saved."
    assert f'<p class="warning" id="rounds-2-teams-0-sheet_score-note">{message}</p>' in page  # beside it
    assert page.count('class="engine differs"') == 1
    assert "Save anyway" in page
    engine = re.findall(r'These rules: <strong class="num">([^<]+)</strong>', page)
    assert engine == ["+4,810", "+2,005", "+2,010", "+4,750", "+4,685", "+2,760", "+1,600", "+4,840"]
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 0  # a check writes nothing
    response = client.post("/games/1/paper", data={**posted(review), "action": "save"})
    assert response.status_code == 303 and response.headers["Location"] == "/games/1#result"
    game = stored_game(db, 1)
    assert [[s.total for s in r] for r in game.standings.round_scores] == SCORES
    assert game.standings.totals == [13105, 14355] and game.finished and game.standings.winners == [1]
    # one change, one revision: every round in one transaction
    assert [(c.revision, c.action, c.summary) for c in game_model.changes_since(db, 1, 0)] == [
        (1, "typed", "Rounds 1–4 typed in from the paper sheet.")
    ]
    assert "Rounds 1–4 saved from the paper sheet." in text(client.get("/games/1"))


def test_a_running_total_the_sheet_added_up_wrong_is_pointed_at_with_the_engines_sum(client, db):
    """The Total line audited as the round score is (issue 55): the family's slip is said
    beside its box with the engine's total before the round, the round's score and what
    they make; the values stay, nothing is written until "Save anyway", and what is saved
    is the engine's."""
    start(client, kept="sheet", played_day="2025-12-30")
    written = [[4810, 2005], [6820, None], [11405, 9515], [None, 14355]]  # round 3: 11,405
    review = check(client, 1, sheet_values(sheet_totals=written))
    page = text(review)
    message = "Ann & Bo: the sheet says a total of 11,405; 6,820 + 4,685 make 11,505."
    assert f'<p class="warning" id="rounds-2-teams-0-sheet_total-note">{message}</p>' in page
    assert 'aria-describedby="rounds-2-teams-0-sheet_total-note"' in page
    assert page.count("the sheet says") == 2  # beside the box, and in the review's list
    assert re.search(r'<a href="#round-3">Round 3</a>: Ann & Bo: the sheet says a total of 11,405;', page)
    assert 'name="rounds-2-teams-0-sheet_total" type="text" value="11405"' in page  # kept
    assert ">Save anyway</button>" in page
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 0  # a check writes nothing
    assert client.post("/games/1/paper", data={**posted(review), "action": "save"}).status_code == 303
    assert stored_game(db, 1).standings.totals == [13105, 14355]  # the engine's, not the sheet's


def test_a_first_rounds_total_and_one_after_a_round_below_zero_are_said_with_their_numbers(client, db):
    start(client, rules="friends-family")
    rounds = [SHEET[0], ((0, 0, 0, 255, 0, 0, 0), SHEET[1][1])]  # round 2: Ann & Bo −255
    # round 1: the digits swapped; round 2: the 255 added instead of taken away
    written = [[4180, 2005], [5065, 6755]]
    page = text(check(client, 1, sheet_values(rounds, sheet_totals=written)))
    assert "Ann & Bo: the sheet says a total of 4,180; these rules make it 4,810." in page
    assert "Ann & Bo: the sheet says a total of 5,065; 4,810 − 255 make 4,555." in page
    assert "Cy & Di: the sheet says a total" not in page


def test_a_good_total_or_none_at_all_is_accepted_as_it_is(client, db):
    start(client, kept="sheet", played_day="2025-12-30")
    right = check(client, 1, sheet_values(sheet_scores=SCORES, sheet_totals=TOTALS))
    page = text(right)
    assert "the sheet says" not in page and 'class="warning"' not in page
    assert ">Save the game</button>" in page and "Save anyway" not in page
    empty = text(check(client, 1, sheet_values(sheet_scores=SCORES)))  # not every family writes it
    assert "the sheet says" not in empty and ">Save the game</button>" in empty
    assert client.post("/games/1/paper", data={**posted(right), "action": "save"}).status_code == 303
    assert stored_game(db, 1).standings.totals == [13105, 14355]


def test_a_total_that_is_no_number_is_said_beside_it_and_kept(client, db):
    start(client)
    values = {**sheet_values(SHEET[:1]), "rounds-0-teams-0-sheet_total": "4,81O"}
    page = text(check(client, 1, values, status=422))
    assert re.search(r'id="rounds-0-teams-0-sheet_total-error">Enter a whole number', page)
    assert 'value="4,81O"' in page
    assert "Round 1 · Ann & Bo · Total: Enter a whole number" in page
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 0


def test_an_error_stops_its_round_with_the_message_by_its_number_and_box(client, db):
    start(client)
    rounds = [list(SHEET[0]), list(SHEET[1])]
    rounds[1][0] = (2, 2, 563, 140, 0, 2, 0)  # 563 points: no cards make that
    response = check(client, 1, sheet_values(rounds), status=422)
    page = text(response)
    message = "Ann & Bo: 563 points melded can’t be right — every card is worth a multiple of 5."
    assert message in page
    section = page.split('id="round-2"')[1].split("</section>")[0]
    assert message in section.split('<div class="paper-teams">')[0]  # beside the round's number
    assert re.search(r'id="rounds-1-teams-0-melded_points-error">[^<]*563 points', section)
    assert 'value="563"' in section  # what was typed stays
    assert "Save the game" not in page
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 0


def test_a_box_that_is_no_number_is_said_beside_it_and_kept(client, db):
    start(client)
    values = {**sheet_values(SHEET[:1]), "rounds-0-teams-1-melded_points": "69O"}
    page = text(check(client, 1, values, status=422))
    assert re.search(r'id="rounds-0-teams-1-melded_points-error">Enter a whole number', page)
    assert 'value="69O"' in page
    assert "Round 1 · Cy & Di · Melded: Enter a whole number" in page  # the summary at the top


def test_an_empty_round_before_a_typed_one_and_rounds_after_the_end_are_refused(client, db):
    start(client)
    gap = check(client, 1, sheet_values([SHEET[0], ((0,) * 7, (0,) * 7), SHEET[2]]), status=422)
    assert "Round 2 is empty: rounds are saved in order." in text(gap)
    start(client, rules="tablet")  # five rounds: a sixth cannot be added
    page = client.get("/games/2/paper?rounds=6")
    assert len(re.findall(r'<section class="paper-round"', text(page))) == 5  # the rules' rounds
    start(client, rules="roth")  # to 10,000: the rules end it once a team is there
    big = ((5, 4, 1500, 0, 0, 0, 1), (1, 1, 300, 50, 0, 0, 0))  # 5,800 a round for team 1
    late = check(client, 3, sheet_values([big, big, big]), status=422)
    assert "These rules ended the game after round 2: round 3 can't be added." in text(late)
    assert db.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 0


def test_a_column_added_or_removed_keeps_what_was_typed(client, db):
    start(client, rules="roth")
    page = client.get("/games/1/paper")
    assert len(re.findall(r'<section class="paper-round"', text(page))) == 4
    more = client.post("/games/1/paper", data={**posted(page), **sheet_values(SHEET[:1]), "action": "more"})
    assert len(re.findall(r'<section class="paper-round"', text(more))) == 5
    assert 'name="rounds-0-teams-0-melded_points" type="text" value="1210"' in text(more)
    fewer = client.post("/games/1/paper", data={**posted(more), "action": "fewer"})
    assert len(re.findall(r'<section class="paper-round"', text(fewer))) == 4
    assert 'value="1210"' in text(fewer)


def test_a_sheet_checked_while_another_phone_saved_a_round_is_refused_and_kept(client, db):
    start(client)
    review = check(client, 1, sheet_values(SHEET[:2]))
    other = client.get("/games/1/rounds/new")  # another phone enters round 1 meanwhile
    entered = {**posted(other), "teams-0-melded_points": "100", "action": "check"}
    checked = client.get(client.post("/games/1/rounds/new", data=entered).headers["Location"])
    assert client.post("/games/1/rounds/new", data={**posted(checked), "action": "save"}).status_code == 303
    response = client.post("/games/1/paper", data={**posted(review), "action": "save"})
    assert response.status_code == 422
    page = text(response)
    assert "This game changed on another phone since you opened this page" in page
    assert "Meanwhile: Round 1 entered." in page
    assert 'value="1210"' in page  # kept, to check again from round 2
    assert [r.number for r in stored_game(db, 1).rounds] == [1]


def test_a_save_sent_again_after_its_answer_was_lost_saves_nothing_twice(client, db):
    start(client)
    review = posted(check(client, 1, sheet_values(SHEET[:2])))
    assert client.post("/games/1/paper", data={**review, "action": "save"}).status_code == 303
    again = client.post("/games/1/paper", data={**review, "action": "save"})
    assert again.status_code == 303 and again.headers["Location"] == "/games/1"
    assert "The sheet was saved already" in text(client.get("/games/1"))
    assert [r.number for r in stored_game(db, 1).rounds] == [1, 2]


RULES_ENDED = (
    "Its rules ended this game after round 4: there is no round after it to type in. "
    "A round is fixed from the game’s page."
)


def test_the_sheet_page_is_only_for_a_game_still_open(client, db, make_game):
    """A game ended by hand opens to more rounds once reopened; one its rules ended never
    does, reopened or not (issue 54: a reopened one was told to reopen it)."""
    ended = make_game("friends-family", paper_rounds(SHEET[:2]), end=True)
    response = client.get(f"/games/{ended.id}/paper")
    assert response.status_code == 303
    assert "This game is finished: reopen it to type more rounds in." in text(
        client.get(f"/games/{ended.id}")
    )
    game = make_game("friends-family", paper_rounds(SHEET))
    assert client.get(f"/games/{game.id}/paper").status_code == 303
    assert RULES_ENDED in html.unescape(text(client.get(f"/games/{game.id}")))
    assert client.post(f"/games/{game.id}/reopen", data={"revision": game.revision}).status_code == 303
    assert stored_game(db, game.id).is_open
    response = client.get(f"/games/{game.id}/paper")
    assert (response.status_code, response.headers["Location"]) == (303, f"/games/{game.id}")
    shown = html.unescape(text(client.get(f"/games/{game.id}")))
    assert RULES_ENDED in shown and "reopen it" not in shown


# --- scores only -------------------------------------------------------------------------------


def test_a_scores_only_game_counts_everywhere_but_in_books_and_says_so(client, db, make_game):
    make_game("friends-family", paper_rounds(SHEET), day="2025-06-01")
    start(client, kept="scores", played_day="2025-06-02")
    page = text(client.get("/games/2/paper"))
    assert re.findall(r'name="(rounds-0-teams-0-[a-z_]+)"', page) == ["rounds-0-teams-0-score"]
    scores = {
        f"rounds-{r}-teams-{t}-score": str(v)
        for r, row in enumerate([[1200, 800], [-150, 2300]])
        for t, v in enumerate(row)
    }
    blank = check(client, 2, {**scores, "rounds-1-teams-1-score": ""}, status=422)
    assert "Type the round's score (0 if it scored nothing)." in text(blank)
    review = check(client, 2, scores)
    assert client.post("/games/2/paper", data={**posted(review), "action": "save"}).status_code == 303
    game = stored_game(db, 2)
    assert game.scores_only and game.finished and game.standings.totals == [1050, 3100]
    assert game.rounds[0].entries[0] == TeamRound(paper_score=1200)
    ann = client.get("/players/1.json").get_json()
    stats = ann["stats"]
    assert stats["games"] == 2 and stats["wins"] == 0 and stats["rounds"] == 6
    assert stats["scores_only"] == 1 and stats["scores_only_rounds"] == 2
    assert stats["books"] == {"clean": 11, "dirty": 15}  # the first game's alone
    assert stats["went_out"] == 2
    assert [r["games"] for r in ann["head_to_head"]] == [2, 2]
    page = text(client.get("/players/1"))
    assert "1 game from paper without books: left out of books and going out." in page
    assert "Rounds went out" in page and "2 of 4" in page
    assert "1 game from paper without books: left out of the record of books." in text(client.get("/records"))
    year = client.get("/years/2025.json").get_json()
    assert year["games"] == 2 and year["records"][0]["without_books"] == 1
    # ratings: both games rated
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM player_ratings").fetchone()[0] == 2


def test_a_scores_only_round_is_fixed_in_the_round_form(client, db):
    start(client, kept="scores")
    review = check(client, 1, {"rounds-0-teams-0-score": "900", "rounds-0-teams-1-score": "-40", "ended": ""})
    client.post("/games/1/paper", data={**posted(review), "action": "save"})
    assert not stored_game(db, 1).finished
    form = client.get("/games/1/rounds/1/edit")
    page = text(form)
    assert 'name="teams-0-paper_score"' in page and 'value="900"' in page and "Who went out" not in page
    checked = client.post("/games/1/rounds/1/edit", data={**posted(form), "teams-0-paper_score": "950"})
    saved = client.post(
        "/games/1/rounds/1/edit", data={**posted(client.get(checked.headers["Location"])), "action": "save"}
    )
    assert saved.status_code == 303
    assert stored_game(db, 1).rounds[0].entries == (TeamRound(paper_score=950), TeamRound(paper_score=-40))


def test_export_then_import_then_export_keeps_played_dates_and_scores_only_rounds(client, db, tmp_path, zone):
    zone("America/Los_Angeles")
    start(client, kept="scores", played_day="2024-03-09", played_time="18:45")
    review = check(client, 1, {"rounds-0-teams-0-score": "1200", "rounds-0-teams-1-score": "-35"})
    client.post("/games/1/paper", data={**posted(review), "action": "save"})
    start(client, kept="sheet", played_day="2024-03-10")
    review = check(client, 2, sheet_values(SHEET))
    client.post("/games/2/paper", data={**posted(review), "action": "save"})
    first = jsonfile.export_history(db)
    one = next(g for g in first["games"] if g["paper"] == "scores")
    assert one["played_at"] == "2024-03-10T02:45:00+00:00"  # 18:45 PST, stored in UTC
    assert one["rounds"][0]["entries"] == [{"paper_score": 1200}, {"paper_score": -35}]
    other = tmp_path / "other.db"
    migrate(other)
    from scorekeeper.storage.db import connect

    elsewhere = connect(other)
    importer.import_history(elsewhere, first)
    again = jsonfile.export_history(elsewhere)
    strip = lambda e: {k: v for k, v in e.items() if k != "exported_at"}  # noqa: E731
    assert json.dumps(strip(again), sort_keys=True) == json.dumps(strip(first), sort_keys=True)
    assert elsewhere.execute("SELECT night FROM nights ORDER BY night").fetchall() == [
        ("2024-03-09",),
        ("2024-03-10",),
    ]
    elsewhere.close()


def test_a_game_kept_as_scores_alone_and_a_game_of_lines_do_not_mix_on_import(db):
    game = {
        "uid": "a1",
        "created_at": "2024-01-01T19:00:00+00:00",
        "finished_at": None,
        "ended_by_hand": False,
        "rules_key": "friends-family",
        "rules": RULESETS["friends-family"].to_dict(),
        "teams": [{"name": "", "players": ["Ann"]}, {"name": "", "players": ["Bo"]}],
        "first_dealer": None,
        "rounds": [{"number": 1, "entries": [{"paper_score": 5}, {"paper_score": 0}]}],
    }
    data = {"format": "scorekeeper-history", "version": 3, "players": [], "house_rules": [], "games": [game]}
    with pytest.raises(
        ValueError, match=r"games\[0\]\.rounds\[0\]\.entries: a game kept as its scores alone"
    ):
        importer.import_history(db, data)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (0,)  # refused: nothing written
    game["paper"] = "scores"
    importer.import_history(db, data)
    (game_id,) = db.execute("SELECT id FROM games WHERE uid = 'a1'").fetchone()
    imported = stored_game(db, game_id)
    assert imported.paper == "scores"
    assert imported.rounds[0].entries == (TeamRound(paper_score=5), TeamRound(paper_score=0))
    assert imported.standings.totals == [5, 0]


# --- the sheet that finds its game ---------------------------------------------------------------


def qr_codes(pdf):
    """The text of every QR code on the PDF's first page, as a phone's camera reads it
    off the paper: the page drawn at 200 dpi by poppler's pdftoppm, read by zxing-cpp."""
    import zxingcpp
    from PIL import Image

    drawn = subprocess.run(
        ["pdftoppm", "-png", "-r", "200", "-f", "1", "-l", "1", "-singlefile", "-"],
        input=pdf,
        capture_output=True,
        check=True,
    ).stdout
    return [code.text for code in zxingcpp.read_barcodes(Image.open(io.BytesIO(drawn)))]


def test_a_printed_sheets_qr_code_opens_its_games_typing_page(app, client, db):
    app.config["SHARE_ADDRESS"] = "192.168.1.20"  # make run's address for the phones
    app.config["TRUSTED_HOSTS"] = ["localhost", "192.168.1.20"]
    start(client, kept="sheet", played_day="2025-12-30", played_time="19:00")
    response = client.get("/games/1/blank.pdf?paper=a4", base_url="http://localhost:5000")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    (code,) = qr_codes(response.data)
    # the typing page, and the sheet it is (issue 55: its rounds, paper, layout and page)
    assert re.fullmatch(
        r"http://192\.168\.1\.20:5000/games/1/paper\?rounds=4&paper=a4&sheet=[0-9a-f]{8}&page=1", code
    ), code
    # the page it opens is that game's sheet, typed in as it reads
    opened = client.get(code.removeprefix("http://192.168.1.20:5000"))
    assert opened.status_code == 200 and "Type in the sheet" in text(opened)
    # the names and the day (in words) are filled in on the paper
    words = subprocess.run(
        ["pdftotext", "-", "-"], input=response.data, capture_output=True, check=True
    ).stdout
    assert b"Ann & Bo" in words and b"Cy & Di" in words and b"Tuesday 30 December 2025" in words
    # a rule set's blank sheet has no game: no code, a line for the date
    blank = client.get("/rules/friends-family/blank.pdf").data
    assert qr_codes(blank) == []


@pytest.mark.long  # two tables' sheets printed by WeasyPrint and their QR codes read: 1 to 2 s
def test_an_evenings_tables_print_their_sheets_each_with_its_games_code(app, client, db):
    from scorekeeper.services import evening_tables, rulesets

    app.config["SHARE_ADDRESS"] = "192.168.1.20"
    app.config["TRUSTED_HOSTS"] = ["localhost", "192.168.1.20"]
    night = evening(datetime.datetime.now(datetime.UTC).isoformat())
    entry = rulesets.get_rule_set(db, "friends-family")
    tables = [[["Ann", "Bo"], ["Cy", "Di"]], [["Ed", "Flo"], ["Gus", "Hal"]]]
    evening_tables.start_sitting(db, night, entry, "rotate", tables)
    assert f"/evenings/{night}/blank.pdf" in text(client.get(f"/evenings/{night}"))
    pdf = client.get(f"/evenings/{night}/blank.pdf", base_url="http://localhost:5000").data
    words = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    assert b"Ann & Bo" in words and b"Gus & Hal" in words and b"game 1" in words and b"game 2" in words
    # the first table's, on page 1
    assert [code.split("?")[0] for code in qr_codes(pdf)] == ["http://192.168.1.20:5000/games/1/paper"]


def test_a_paper_sheet_typed_in_twice_is_caught_on_its_typing_page(client, db):
    """The same sheet typed in as a second game (issue 54) is pointed at before it is saved:
    the same night, the same players in the same teams, the same totals."""
    for day in ("2025-11-07", "2025-11-07", "2025-11-08"):
        start(client, kept="sheet", played_day=day, played_time="21:30")
    review = check(client, 1, sheet_values())
    assert "This looks like" not in text(review)
    assert client.post("/games/1/paper", data={**posted(review), "action": "save"}).status_code == 303
    again = re.sub(r"\s+", " ", text(check(client, 2, sheet_values())))
    today = datetime.date.today().isoformat()
    assert (
        'This looks like <a href="/games/1">game 1</a>, typed on '
        f"{today}: the same night, players and totals. Is this sheet in already?"
    ) in again
    assert ">Save anyway</button>" in again
    assert "This looks like" not in text(check(client, 3, sheet_values()))  # another night
    fewer = text(check(client, 2, sheet_values(SHEET[:3])))  # other totals
    assert "This looks like" not in fewer and ">Save the game</button>" in fewer
