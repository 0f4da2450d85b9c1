"""A spreadsheet as a family keeps it, and one game once (issue 54): real files posted to the
spreadsheet page, the preview read as a person reads it, the games written read back.

Each test fails on the code before issue 54 (said in its commit)."""

import datetime
import re

import pytest

from scorekeeper.exchange import pastgames
from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import deleted, game_model, games

from ..helpers import TEAMS, posted, text
from ..helpers import past_games_preview as preview


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # posted() carries no token then: the forms are the subject
    return app


def again(client, page, status=200, **fields):
    """The page posted again as a browser would (the file carried in it), with ``fields``."""
    data = {**posted(page), "action": "preview", **fields}
    response = client.post("/import/past-games", data=data, content_type="multipart/form-data")
    assert response.status_code == status, text(response)[:3000]
    return response


def import_it(client, page, status=303, **fields):
    data = {**posted(page), "action": "import", **fields}
    response = client.post("/import/past-games", data=data, content_type="multipart/form-data")
    assert response.status_code == status, text(response)[:3000]
    return response


def flat(response):
    return re.sub(r"\s+", " ", text(response))


def problems(response):
    return re.findall(r"<li>(Line \d+: [^<]*)</li>", text(response))


def listed(response):
    """Each game the preview lists, as its lines read: (when, headline, scores, what is here)."""
    found = []
    for item in re.findall(r'<li class="(?:new|known)">(.*?)</li>', text(response), re.S):
        parts = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", p)).strip() for p in re.split(r"\n", item)]
        found.append(tuple(p for p in parts if p))
    return found


def import_button(response):
    found = re.search(
        r'<button type="submit" name="action" value="import"[^>]*>([^<]*)</button>', text(response)
    )
    return found[1] if found else None


def game_count(db):
    return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]


def scores_of(db, game_id):
    game = game_model.load_game(db, game_id)
    return [team.name for team in game.teams], game.standings.totals


def type_sheet(client, day, scores, teams=TEAMS, time_played="20:30"):
    """A game kept as scores alone, started as played on ``day`` and its sheet typed in
    and saved through the typing page, as a family does; its id."""
    page = client.get("/games/new?rules=friends-family")
    values = {**posted(page), **teams, "kept": "scores", "played_day": day, "played_time": time_played}
    started = client.post("/games/new", data=values)
    assert started.status_code == 303, text(started)[:2000]
    game_id = int(re.search(r"/games/(\d+)", started.headers["Location"])[1])
    boxes = {f"rounds-{r}-teams-{t}-score": str(v) for r, row in enumerate(scores) for t, v in enumerate(row)}
    sheet = client.get(f"/games/{game_id}/paper")
    review = client.post(f"/games/{game_id}/paper", data={**posted(sheet), **boxes, "action": "check"})
    assert review.status_code == 200, text(review)[:3000]
    saved = client.post(f"/games/{game_id}/paper", data={**posted(review), "action": "save"})
    assert saved.status_code == 303
    return game_id, review


# --- a line a game, as a family keeps it ---------------------------------------------------------

NATURAL = (
    "Date,Team 1,Team 2,Team 1 score,Team 2 score\n"
    "2026-09-12,Ann & Bo,Cy & Di,5120,4305\n"
    "2026-09-12,Ann and Cy,Bo + Di,3010,6200\n"
    "2026-09-13,Eve / Flo,Ann & Bo,4105,4105\n"
)


# the same games a line a team, each game its own label: read before issue 54 too, so that a
# test of a finding that is not about the layout fails on that finding
BY_TEAM = (
    "date,game,players,round 1\n"
    "2026-09-12,g1,Ann & Bo,5120\n"
    "2026-09-12,g1,Cy & Di,4305\n"
    "2026-09-12,g2,Ann & Cy,3010\n"
    "2026-09-12,g2,Bo & Di,6200\n"
    "2026-09-13,g3,Eve & Flo,4105\n"
    "2026-09-13,g3,Ann & Bo,4105\n"
)


def test_a_line_a_game_with_teams_as_columns_is_read_and_said(client, db):
    """The family's own layout was refused ("no “game” column", "no “players” column")."""
    shown = preview(client, NATURAL)
    assert "Read as a line a game, each team's players and score in its own columns." in flat(shown)
    assert "3 games (3 rounds), scores alone" in flat(shown)
    assert "<dt>New players</dt><dd>Ann · Bo · Cy · Di · Eve · Flo</dd>" in flat(shown)
    assert listed(shown) == [
        ("2026-09-12 · line 2", "Ann & Bo won", "Ann & Bo 5,120 · Cy & Di 4,305"),
        ("2026-09-12 · line 3", "Bo & Di won", "Ann & Cy 3,010 · Bo & Di 6,200"),
        ("2026-09-13 · line 4", "A tie", "Eve & Flo 4,105 · Ann & Bo 4,105"),
    ]
    assert import_button(shown) == "Import 3 games"
    import_it(client, shown)
    assert game_count(db) == 3
    assert scores_of(db, 2) == (["Ann & Cy", "Bo & Di"], [3010, 6200])
    game = game_model.load_game(db, 3)
    assert game.scores_only and game.finished and game.night == "2026-09-13"


def test_games_numbered_again_each_night_are_games_of_their_own(client, db):
    """Numbers 1, 2 each night gave ten errors ("game “1” has the date “2026-09-12” on line
    2") that hid the one real problem, an unknown rule set said as "game “1” is played under…"."""
    lines = [
        "date,game,players,rules,round 1,round 2",
        "2026-09-12,1,Ann & Bo,,1200,800",
        "2026-09-12,1,Cy & Di,,900,-150",
        "2026-09-12,2,Ann & Cy,,1500,1000",
        "2026-09-12,2,Bo & Di,,300,450",
        "2026-09-13,1,Ann & Bo,Nana's,1000,1000",
        "2026-09-13,1,Cy & Di,Nana's,500,500",
        "2026-09-13,2,Ann & Di,,2000,5",
        "2026-09-13,2,Bo & Cy,,5,2000",
    ]
    refused = preview(client, "\n".join(lines) + "\n", status=422)
    assert problems(refused) == ["Line 6: no rule set is called “Nana's”"]
    assert "Nothing was imported: 1 line to fix first." in flat(refused)
    lines[5:7] = [line.replace("Nana's", "") for line in lines[5:7]]
    shown = preview(client, "\n".join(lines) + "\n")
    assert [item[0] for item in listed(shown)] == [
        "2026-09-12 · game 1 · line 2",
        "2026-09-12 · game 2 · line 4",
        "2026-09-13 · game 1 · line 6",
        "2026-09-13 · game 2 · line 8",
    ]
    import_it(client, shown)
    assert game_count(db) == 4
    assert scores_of(db, 3) == (["Ann & Bo", "Cy & Di"], [2000, 1000])


def test_a_quoted_name_with_a_comma_stays_one_name_and_a_larger_team_is_pointed_at(client, db):
    """ "Hughes, Dot & Emma" was a team of three, "Hughes & Dot & Emma", and the preview said
    "New players: Hughes, Dot"."""
    content = (
        "date,game,players,round 1\n"
        '2026-09-12,a,"Hughes, Dot & Emma",3010\n'
        "2026-09-12,a,Cy & Di,6200\n"
        "2026-09-13,b,Ann & Bo & Cy,100\n"
        "2026-09-13,b,Di,200\n"
    )
    shown = preview(client, content)
    assert "<dt>New players</dt><dd>Hughes, Dot · Emma · Cy · Di · Ann · Bo</dd>" in flat(shown)
    assert listed(shown)[0][2] == "Hughes, Dot & Emma 3,010 · Cy & Di 6,200"
    assert re.findall(r"<li>(Line \d+: [^<]*)</li>", text(shown)) == [
        "Line 4: “Ann & Bo & Cy” is a team of 3, more than the others: should two of these names be one?"
    ]
    import_it(client, shown)
    game = game_model.load_game(db, 1)
    assert [p.name for p in game.teams[0].players] == ["Hughes, Dot", "Emma"]


@pytest.mark.parametrize("dates", ["dmy", "auto"])
def test_days_of_mixed_styles_are_each_read(client, db, dates):
    """With "24/12/2019" chosen, 2026-08-22 was refused too."""
    content = (
        "date,game,players,1\n2026-08-22,1,Ann,5\n2026-08-22,1,Bo,6\n24/12/2019,1,Ann,7\n24/12/2019,1,Bo,8\n"
    )
    shown = preview(client, content, dates=dates)
    assert [item[0] for item in listed(shown)] == [
        "2026-08-22 · game 1 · line 2",
        "2019-12-24 · game 1 · line 4",
    ]
    assert "<dt>Days</dt><dd>Day first: 24/12/2019</dd>" in flat(shown)


def test_a_day_that_could_be_either_is_asked_beside_its_choice_and_the_file_kept(client, db):
    content = (
        "date,game,players,1\n2026-08-22,1,Ann,5\n2026-08-22,1,Bo,6\n03/04/2026,1,Ann,7\n03/04/2026,1,Bo,8\n"
    )
    asked = preview(client, content, status=422)
    error = re.search(r'<p class="error" id="dates-error">([^<]*)</p>', text(asked))
    assert error and error[1] == (
        "A day such as “03/04/2026” (line 4) can be read day first or month first, "
        "and no day of this file says which: pick how it writes them."
    )
    assert (
        '<details class="pick-rules" open>' in text(asked) and posted(asked)["content"]
    )  # the file rides along
    day_first = again(client, asked, dates="dmy")
    assert listed(day_first)[1][0] == "2026-04-03 · game 1 · line 4"
    month_first = again(client, asked, dates="mdy")
    assert listed(month_first)[1][0] == "2026-03-04 · game 1 · line 4"
    # a file that writes both: asked, then the lines written the other way named
    both = (
        "date,game,players,1\n24/12/2019,1,Ann,5\n24/12/2019,1,Bo,6\n12/25/2019,1,Ann,7\n12/25/2019,1,Bo,8\n"
    )
    asked = preview(client, both, status=422)
    assert "both day first (line 2: “24/12/2019”) and month first (line 4: “12/25/2019”)" in text(asked)
    assert problems(again(client, asked, status=422, dates="dmy")) == [
        "Line 4: “12/25/2019” is not a day written like 24/12/2019"
    ]
    assert game_count(db) == 0


# --- the preview --------------------------------------------------------------------------------


def test_the_preview_lists_each_game_and_imports_only_the_new_ones(client, db):
    """ "Import 6 games" was offered after the preview said all six were here already."""
    first = "date,game,players,1\n2026-01-05,a,Ann & Bo,500\n2026-01-05,a,Cy & Di,400\n"
    import_it(client, preview(client, first))
    both = first + "2026-01-06,a,Ann & Bo,10\n2026-01-06,a,Cy & Di,20\n"
    shown = preview(client, both)
    assert listed(shown) == [
        (
            "2026-01-05 · game a · line 2",
            "Ann & Bo won",
            "Ann & Bo 500 · Cy & Di 400",
            "Here already: this file's game came in before.",
        ),
        ("2026-01-06 · game a · line 4", "Cy & Di won", "Ann & Bo 10 · Cy & Di 20"),
    ]
    assert "2 games (2 rounds), scores alone; 1 of them here already, skipped" in flat(shown)
    assert import_button(shown) == "Import 1 game"
    import_it(client, shown)
    assert game_count(db) == 2
    assert "Imported 1 game (1 round)." in text(client.get("/history"))


def test_the_lines_to_fix_are_counted_as_lines(client, db):
    """Three bad lines, one of them with two problems, were "4 lines to fix"."""
    content = (
        "date,game,players,1\n"
        "2020-01-01,a,,x\n"  # no players, and no number
        "2020-01-01,a,Bo,5\n"
        "2020-01-02,b,Cy,y\n"
        "2020-01-02,b,Di,z\n"
    )
    refused = preview(client, content, status=422)
    assert "Nothing was imported: 3 lines to fix first." in flat(refused)
    assert problems(refused) == [
        "Line 2: no players: name them, joined with &",
        "Line 2: round 1: “x” is not a whole number",
        "Line 4: round 1: “y” is not a whole number",
        "Line 5: round 1: “z” is not a whole number",
    ]


# --- a template, and the links to the page ------------------------------------------------------

TEMPLATES = {
    "en": (
        "\ufeffDate,Game,Team 1,Team 2,Team 1 score,Team 2 score\r\n",
        "\ufeffDate,Game,Players,Round 1,Round 2,Round 3,Round 4\r\n",
    ),
    "pt_BR": (
        "\ufeffData;Partida;Equipe 1;Equipe 2;Pontos da equipe 1;Pontos da equipe 2\r\n",
        "\ufeffData;Partida;Jogadores;Rodada 1;Rodada 2;Rodada 3;Rodada 4\r\n",
    ),
    "es": (
        "\ufeffFecha;Partida;Equipo 1;Equipo 2;Puntos del equipo 1;Puntos del equipo 2\r\n",
        "\ufeffFecha;Partida;Jugadores;Mano 1;Mano 2;Mano 3;Mano 4\r\n",
    ),
    "it": (
        "\ufeffData;Partita;Squadra 1;Squadra 2;Punti squadra 1;Punti squadra 2\r\n",
        "\ufeffData;Partita;Giocatori;Smazzata 1;Smazzata 2;Smazzata 3;Smazzata 4\r\n",
    ),
}


def test_a_template_in_the_households_language_is_read_back_whatever_its_language_now(client, db, app):
    """Every language's template, filled in, is read while the household speaks another."""
    filled = {}
    for code, (by_game, by_team) in TEMPLATES.items():
        with open(f"{app.instance_path}/language", "w", encoding="utf-8") as file:
            file.write(code + "\n")
        for layout, expected in (("games", by_game), ("scores", by_team)):
            response = client.get(f"/import/past-games/{layout}.csv")
            assert response.status_code == 200 and response.mimetype == "text/csv"
            assert response.get_data(as_text=True) == expected, code
        separator = ";" if code != "en" else ","
        filled[code] = (
            by_game + separator.join(["2026-02-01", "1", "Ann & Bo", "Cy & Di", "100", "90"]) + "\r\n",
            by_team
            + separator.join(["2026-02-02", "1", "Ann & Bo", "10", "20", "30", "40"])
            + "\r\n"
            + separator.join(["2026-02-02", "1", "Cy & Di", "1", "2", "3", "4"])
            + "\r\n",
        )
    with open(f"{app.instance_path}/language", "w", encoding="utf-8") as file:
        file.write("it\n")  # the household now speaks Italian: each language's file is read
    for code, (by_game, by_team) in filled.items():
        assert listed(preview(client, by_game))[0][2] == "Ann & Bo 100 · Cy & Di 90", code
        assert listed(preview(client, by_team))[0][2] == "Ann & Bo 100 · Cy & Di 10", code


def test_the_page_is_linked_from_home_and_history_by_its_name(client):
    link = '<a class="button secondary" href="/import/past-games">Add past games from a spreadsheet</a>'
    assert link in text(client.get("/"))
    assert link in text(client.get("/history"))
    page = text(client.get("/import/past-games"))
    assert '<a class="button secondary" href="/import/past-games/games.csv" download>' in page
    assert '<a class="button secondary" href="/import/past-games/scores.csv" download>' in page


# --- one game, once ----------------------------------------------------------------------------


def test_a_game_typed_from_its_sheet_is_recognised_in_the_spreadsheet_and_left_out_unless_asked(client, db):
    """The spreadsheet added a second copy of a game already typed in from its sheet."""
    typed, _review = type_sheet(client, "2026-09-12", [[3000, 2000], [2120, 2305]])  # 5,120 to 4,305
    today = datetime.date.today().isoformat()
    shown = preview(client, BY_TEAM)
    first = listed(shown)[0]
    assert first == (
        "2026-09-12 · game g1 · line 2",
        "Ann & Bo won",
        "Ann & Bo 5,120 · Cy & Di 4,305",
        f"Looks like game {typed}, typed on {today}: the same night, players and totals. Left out.",
        "Import it anyway",
    )
    assert f'<a href="/games/{typed}">game {typed}</a>' in text(shown)
    assert "3 games (3 rounds), scores alone; 1 like a game here" in flat(shown)
    assert import_button(shown) == "Import 2 games"
    # ticked: the count said again before anything is written
    uid = re.search(r'name="anyway" value="([^"]+)"', text(shown))[1]
    recounted = import_it(client, shown, status=200, anyway=uid)
    assert "The games to import changed since the button was drawn: here is the count again." in text(
        recounted
    )
    assert import_button(recounted) == "Import 3 games" and 'value="' + uid + '" checked' in text(recounted)
    assert game_count(db) == 1
    # left out after all: the box cleared, the count said again, then two imported
    cleared = {k: v for k, v in posted(recounted).items() if k != "anyway"}
    recounted = client.post("/import/past-games", data={**cleared, "action": "import"})
    assert recounted.status_code == 200 and import_button(recounted) == "Import 2 games"
    import_it(client, recounted)
    assert game_count(db) == 3
    assert (
        "Imported 2 games (2 rounds) and 2 new players. 1 game like one here already was left out."
        in text(client.get("/history"))
    )


@pytest.mark.parametrize("how", ["phone", "spreadsheet"])
def test_a_game_however_it_came_in_is_recognised(client, db, how):
    if how == "phone":  # started on the phone, its rounds scored there
        page = client.get("/games/new?rules=friends-family")
        values = {**posted(page), **TEAMS, "played_day": "2026-09-12", "played_time": "21:00"}
        assert client.post("/games/new", data=values).status_code == 303
        game = game_model.load_game(db, 1)
        games.add_round(  # as the round form saves it
            db,
            1,
            game.revision,
            1,
            [
                TeamRound(books={"clean": 4, "dirty": 5}, melded_points=1210, went_out=True),
                TeamRound(
                    books={"clean": 2, "dirty": 3}, melded_points=690, unplayed_points=85, red_threes=1
                ),
            ],
        )
        totals = game_model.load_game(db, 1).standings.totals
        said = f"typed on {datetime.date.today().isoformat()}"
    else:  # imported from another spreadsheet, its time written
        other = (
            "Date,Time,Team 1,Team 2,Team 1 score,Team 2 score\n2026-09-12,21:00,Ann & Bo,Cy & Di,4810,2005\n"
        )
        import_it(client, preview(client, other))
        totals, said = [4810, 2005], "from a spreadsheet"
    assert totals == [4810, 2005]
    content = (
        f"Date,Team 1,Team 2,Team 1 score,Team 2 score\n2026-09-12,Bo & Ann,Di & Cy,{totals[0]},{totals[1]}\n"
    )
    shown = preview(client, content)
    assert listed(shown)[0][3] == f"Looks like game 1, {said}: the same night, players and totals. Left out."
    assert "Nothing to import: every game of this file is here already, or left out." in text(shown)


def test_a_deleted_game_is_not_one_alike_and_comes_in_again(client, db):
    """A game the family deleted is counted nowhere: a spreadsheet that holds it brings it in."""
    other = "Date,Time,Team 1,Team 2,Team 1 score,Team 2 score\n2026-09-12,21:00,Ann & Bo,Cy & Di,4810,2005\n"
    import_it(client, preview(client, other))
    deleted.delete_game(db, 1, game_model.load_game(db, 1).revision)
    content = "Date,Team 1,Team 2,Team 1 score,Team 2 score\n2026-09-12,Bo & Ann,Di & Cy,4810,2005\n"
    shown = preview(client, content)
    assert listed(shown) == [("2026-09-12 · line 2", "Bo & Ann won", "Bo & Ann 4,810 · Di & Cy 2,005")]
    assert import_button(shown) == "Import 1 game"


# --- what a hunt of action sequences found ------------------------------------------------------


def test_the_same_spreadsheet_after_the_computers_zone_changed_adds_nothing(client, db, zone):
    """A game's uid was made from its stored UTC time: the same file on a computer set to
    another zone added every game again."""
    zone("UTC")
    import_it(client, preview(client, BY_TEAM))
    assert game_count(db) == 3
    zone("Asia/Tokyo")
    shown = preview(client, BY_TEAM)
    import_it(client, shown)  # as the page offers it
    assert game_count(db) == 3
    assert "3 of them here already, skipped" in flat(shown) and import_button(shown) is None


def test_a_game_dated_later_than_now_is_refused_as_new_game_refuses_it(client, db):
    """Games dated tomorrow (and today 23:59) were taken without a word."""
    content = (
        "date,game,players,1\n2999-01-01,a,Ann,5\n2999-01-01,a,Bo,6\n2026-01-05,b,Ann,5\n2026-01-05,b,Bo,6\n"
    )
    refused = preview(client, content, status=422)
    assert problems(refused) == ["Line 2: That is later than now: a game is typed in once it was played."]
    assert game_count(db) == 0


def test_today_late_in_the_evening_is_later_than_now_and_today_alone_is_now():
    """The reader given a fixed now, on this computer's clock whatever its zone: 23:59 tonight
    is refused at 15:00; today with no time is now, as New game makes it."""
    now = datetime.datetime(2026, 9, 12, 15, 0).astimezone()
    rules = ("friends-family", RULESETS["friends-family"])
    content = "Date,Time,Team 1,Team 2,Team 1 score,Team 2 score\n2026-09-12,23:59,Ann,Bo,5,6\n"
    with pytest.raises(pastgames.PastGamesRefused) as refused:
        pastgames.read_past_games(content.encode(), {}, rules, now=now)
    assert refused.value.problems == [(2, "That is later than now: a game is typed in once it was played.")]
    later = pastgames.read_past_games(content.replace("23:59", "15:05").encode(), {}, rules, now=now)
    alone = pastgames.read_past_games(content.replace("23:59", "").encode(), {}, rules, now=now)
    assert alone.games[0].played_at == now.astimezone(datetime.UTC).isoformat(timespec="seconds")
    assert later.games[0].played_at == datetime.datetime(2026, 9, 12, 15, 5).astimezone(
        datetime.UTC
    ).isoformat(timespec="seconds")


def test_a_blank_first_line_a_byte_order_mark_and_crlf_are_read(client, db):
    """A CSV whose first line was blank was "empty"."""
    content = "\ufeff\r\n,,,\r\nDate,Game,Players,Round 1\r\n2026-09-12,a,Ann,5\r\n2026-09-12,a,Bo,6\r\n"
    shown = preview(client, content.encode("utf-8"))
    assert "1 game (1 rounds), scores alone" in flat(shown)
    assert listed(shown) == [("2026-09-12 · game a · line 4", "Bo won", "Ann 5 · Bo 6")]


@pytest.mark.parametrize(
    "header, said",
    [
        (
            "date,Date,game,players,round 1",
            "Line 1: columns A (“date”) and B (“Date”) are the same column: keep one",
        ),
        (
            "date,game,players,Round 1,R1",
            "Line 1: columns D (“Round 1”) and E (“R1”) are the same column: keep one",
        ),
        ("date,game,players,round 0,round 1", "Line 1: column D (“round 0”): they are numbered from 1"),
        ("date,game,players,round 1,round 3", "Line 1: no “Round 2” column, but a “Round 3” column"),
    ],
)
def test_a_column_named_twice_or_numbered_0_is_said(client, db, header, said):
    """Such columns were read silently (one of the two, or round 0 as the first round)."""
    refused = preview(client, header + "\n2026-01-05,a,Ann,5,6\n2026-01-05,a,Bo,7,8\n", status=422)
    assert problems(refused) == [said]
    assert game_count(db) == 0


# --- the family's file, whole -------------------------------------------------------------------

FAMILY = (
    "\ufeff\r\n"  # a byte-order mark, and a blank first line (line 1)
    "Date,Game,Team 1,Team 2,Team 1 score,Team 2 score,Rules\r\n"
    "2026-08-22,1,Ann & Bo,Cy & Di,5120,4305,\r\n"  # typed in from its sheet already
    '2026-08-22,2,"Hughes, Dot & Emma",Cy & Di,3010,6200,\r\n'
    "\r\n"
    "23/08/2026,1,Ann and Bo,Cy + Di,4000,4100,Nana's\r\n"  # another style of day; house rules not saved yet
    "23/08/2026,2,Ann & Bo,Cy & Di,2500,2600,\r\n"
)


def test_the_familys_own_file_is_previewed_right_and_imports_its_new_games_once(client, db):
    """The issue's file: a line a game, numbers that start again each night, a quoted comma,
    days of two styles, a game typed in already, a rule set not saved yet, a blank line, a
    byte-order mark and CRLF."""
    typed, _review = type_sheet(client, "2026-08-22", [[3000, 2000], [2120, 2305]])
    refused = preview(client, FAMILY.encode("utf-8"), status=422)
    assert problems(refused) == ["Line 6: no rule set is called “Nana's”"]
    assert "Nothing was imported: 1 line to fix first." in flat(refused)
    rules_page = client.get("/rules/new?from=roth")  # the family saves its house rules
    assert (
        client.post("/rules/new?from=roth", data={**posted(rules_page), "name": "Nana's"}).status_code == 303
    )
    shown = preview(client, FAMILY.encode("utf-8"))
    today = datetime.date.today().isoformat()
    assert "Read as a line a game, each team's players and score in its own columns." in flat(shown)
    assert "4 games (4 rounds), scores alone; 1 like a game here" in flat(shown)
    assert "<dt>Days</dt><dd>Day first: 24/12/2019</dd>" in flat(shown)
    assert "<dt>Players known</dt><dd>Ann · Bo · Cy · Di</dd>" in flat(shown)
    assert "<dt>New players</dt><dd>Hughes, Dot · Emma</dd>" in flat(shown)
    assert listed(shown) == [
        (
            "2026-08-22 · game 1 · line 3",
            "Ann & Bo won",
            "Ann & Bo 5,120 · Cy & Di 4,305",
            f"Looks like game {typed}, typed on {today}: the same night, players and totals. Left out.",
            "Import it anyway",
        ),
        ("2026-08-22 · game 2 · line 4", "Cy & Di won", "Hughes, Dot & Emma 3,010 · Cy & Di 6,200"),
        ("2026-08-23 · game 1 · line 6", "Cy & Di won", "Ann & Bo 4,000 · Cy & Di 4,100"),
        ("2026-08-23 · game 2 · line 7", "Cy & Di won", "Ann & Bo 2,500 · Cy & Di 2,600"),
    ]
    assert import_button(shown) == "Import 3 games"
    import_it(client, shown)
    assert (
        "Imported 3 games (3 rounds) and 2 new players. 1 game like one here already was left out."
        in text(client.get("/history"))
    )
    assert game_count(db) == 4
    assert db.execute("SELECT night, games FROM nights ORDER BY night").fetchall() == [
        ("2026-08-22", 2),
        ("2026-08-23", 2),
    ]
    nanas = game_model.load_game(db, 3)
    assert nanas.rules.name == "Nana's" and scores_of(db, 3) == (["Ann & Bo", "Cy & Di"], [4000, 4100])
    # the same file again: nothing new
    again_shown = preview(client, FAMILY.encode("utf-8"))
    assert "4 games (4 rounds), scores alone; 3 of them here already, skipped; 1 like a game here" in flat(
        again_shown
    )
    assert import_button(again_shown) is None
    import_it(client, again_shown)
    assert game_count(db) == 4
