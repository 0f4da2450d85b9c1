"""An evening of several tables (issue 32): who is here, fair tables proposed from the
ratings, every table started in one tap, the evening page and its JSON, partners
rotated or a progressive evening, and six tables saving at once."""

import datetime
import html
import json
import random
import re
import statistics
import threading
import zoneinfo

import pytest

from scorekeeper.services import evening_tables, seating
from tests.helpers import served
from tests.httpkit import (
    FlaskPhone,
    HttpPhone,
    check_round,
    end_game,
    game_json,
    migrated,
    player_ids,
    post_form,
    press_save,
    query_db,
    rename_player,
    save_round,
)

pytestmark = pytest.mark.timeout(120)

TWELVE = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]


@pytest.fixture
def phone(app):
    return FlaskPhone(app)


def propose(phone, names, **fields):
    """The proposal page for ``names`` (typed as new names or ticked when known)."""
    form, _ = phone.open_form("/evenings/new")
    known = set(form.choices.get("present", []))  # the players the app knows: ticked
    values = {f"newcomers-{i}": n for i, n in enumerate(n for n in names if n not in known)}
    pairs = form.pairs(values) + [("present", n) for n in names if n in known]
    for name, value in fields.items():
        pairs = [(k, v) for k, v in pairs if k != name] + [(name, value)]
    return phone.post("/evenings/new", pairs + [("action", "propose")])


def shown_tables(resp):
    """The proposal's tables as the page shows them: [[names of each team]] per table."""
    seats = re.search(r'name="seats" type="hidden" value="([^"]*)"', resp.text)
    return json.loads(html.unescape(seats[1]))


def start(phone, proposal_page, url="/evenings/new"):
    started = phone.submit(post_form(proposal_page.text), url, button=("action", "start", None))
    assert started.status == 303, (started.status, started.text[:300])
    return started.location.rstrip("/").rsplit("/", 1)[-1]


def evening_games(database, night, sitting=None):
    sql = "SELECT game_id FROM evening_games WHERE night = ?" + (" AND sitting = ?" if sitting else "")
    sql += " ORDER BY sitting, table_number"
    return [g for (g,) in query_db(database, sql, (night, sitting) if sitting else (night,))]


def a_round(winner, points=150):
    """A round that team ``winner`` leads."""
    return {
        "went_out": str(winner),
        winner: {"book_clean": 1, "melded_points": points},
        1 - winner: {"melded_points": 60},
    }


def test_twelve_people_make_three_fair_tables_started_in_one_tap(app, phone):
    page = propose(phone, TWELVE)
    assert page.status == 200
    tables = shown_tables(page)
    assert [[len(team) for team in table] for table in tables] == [[2, 2]] * 3
    assert sorted(n for table in tables for team in table for n in team) == sorted(TWELVE)
    assert page.text.count("Keep this table as it is") == 3 and "Start every table" in page.text
    assert seating.TABLE_RULE in html.unescape(page.text)
    night = start(phone, page)
    assert night == evening_tables.tonight()
    database = app.config["DATABASE"]
    games = evening_games(database, night)
    assert len(games) == 3
    for number, game in enumerate(games):
        teams = [list(team["players"]) for team in game_json(phone, game)["teams"]]
        assert teams == tables[number]
    # a round at every table; the evening page and its JSON say what the games say
    for n, game in enumerate(games):
        assert save_round(phone, game, a_round(n % 2, 150 + 10 * n)).status == 303
    evening = json.loads(phone.get(f"/evenings/{night}.json").body)
    shown = html.unescape(phone.get(f"/evenings/{night}").text)
    for table, game in zip(evening["sittings"][0], games):
        played = game_json(phone, game)
        assert table["game_id"] == game and table["round"] == 1
        assert [t["total"] for t in table["teams"]] == played["totals"]
        for team in played["teams"]:
            assert team["name"] in shown
    points = {n["name"]: n["points"] for n in evening["standings"]}
    for game in games:
        played = game_json(phone, game)
        for team, total in zip(played["teams"], played["totals"]):
            for player in team["players"]:
                assert points[player] == total
    assert evening_tables.RANKING_RULE in shown
    assert evening["best_round"]["points"] == max(
        t["total"] for s in evening["sittings"][0] for t in s["teams"]
    )


@pytest.mark.parametrize(
    "names, fields, message",
    [
        (["Ann"], {}, "at least 2 people"),
        (["Ann", "Bo", "ann"], {}, "ann is here twice"),
        (TWELVE[:8], {"tables": "7"}, "Choose 1 to 6 tables"),
        (TWELVE[:8], {"tables": "3"}, "too few for 3 tables"),
        (TWELVE[:7], {"tables": "2"}, "do not make teams of 2"),
        (["Ann", "Bo", ""], {"team_size": "7"}, "Not a valid choice"),
    ],
)
def test_bad_input_is_said_next_to_its_field_and_nothing_is_written(app, phone, names, fields, message):
    resp = propose(phone, names, **fields)
    assert resp.status == 422, resp.status
    assert message in html.unescape(resp.text)
    assert query_db(app.config["DATABASE"], "SELECT count(*) FROM games")[0][0] == 0


def test_a_proposal_tampered_with_is_not_started(app, phone):
    page = propose(phone, TWELVE[:4])
    form = post_form(page.text)
    pairs = [(k, v) for k, v in form.pairs() if k != "seats"] + [("seats", '[[["Ann"], ["Zed"]]]')]
    resp = phone.post("/evenings/new", pairs + [("action", "start")])
    assert resp.status == 200 and "The people here changed" in html.unescape(resp.text)
    assert query_db(app.config["DATABASE"], "SELECT count(*) FROM games")[0][0] == 0


@pytest.mark.parametrize("night", ["2026-02-30", "abc", "2026-1-1", "99999-01-01", "2026-01-05"])
def test_an_evening_that_is_no_date_or_had_no_games_is_a_404(phone, night):
    for url in (f"/evenings/{night}", f"/evenings/{night}.json", f"/evenings/{night}/next"):
        assert phone.get(url).status == 404, url


def test_swap_and_lock_change_the_proposal_as_asked(phone):
    page = propose(phone, TWELVE[:8])
    tables = shown_tables(page)
    a, b = tables[0][0][0], tables[1][0][0]
    swapped = phone.submit(
        post_form(page.text), "/evenings/new", {"swap_a": a, "swap_b": b}, button=("action", "swap", None)
    )
    after = shown_tables(swapped)
    assert after[0][0][0] == b and after[1][0][0] == a
    locked = phone.submit(
        post_form(swapped.text),
        "/evenings/new",
        {"swap_a": "Ann", "swap_b": "Hal"},
        button=("action", "lock", None),
    )
    assert any(sorted(team) == ["Ann", "Hal"] for table in shown_tables(locked) for team in table)
    again = phone.submit(post_form(locked.text), "/evenings/new", button=("action", "another", None))
    assert any(sorted(team) == ["Ann", "Hal"] for table in shown_tables(again) for team in table)


def test_the_next_game_rotates_partners(app, phone):
    night = start(phone, propose(phone, TWELVE))
    first = evening_games(app.config["DATABASE"], night, 1)
    partners = set()
    for game in first:
        assert save_round(phone, game, a_round(0)).status == 303
        assert end_game(phone, game).status == 303
        for team in game_json(phone, game)["teams"]:
            partners.add(frozenset(p for p in team["players"]))
    page = phone.get(f"/evenings/{night}/next")
    assert page.status == 200
    assert not {frozenset(team) for table in shown_tables(page) for team in table} & partners
    start(phone, page, f"/evenings/{night}/next")
    second = evening_games(app.config["DATABASE"], night, 2)
    assert len(second) == 3
    for game in second:
        for team in game_json(phone, game)["teams"]:
            assert frozenset(p for p in team["players"]) not in partners


def test_a_progressive_evening_moves_the_winners_up_and_counts_each_players_night(app, phone):
    night = start(phone, propose(phone, TWELVE, mode="progressive"))
    database = app.config["DATABASE"]
    won, points = dict.fromkeys(TWELVE, 0), dict.fromkeys(TWELVE, 0)
    for sitting in (1, 2, 3):
        games = evening_games(database, night, sitting)
        tables = []
        for t, game in enumerate(games):
            winner = (t + sitting) % 2
            assert save_round(phone, game, a_round(winner)).status == 303
            assert end_game(phone, game).status == 303
            played = game_json(phone, game)
            teams = played["teams"]
            tables.append([list(team["players"]) for team in teams])
            for i, team in enumerate(teams):
                for p in team["players"]:
                    points[p] += played["totals"][i]
                    won[p] += i == winner
        if sitting == 3:
            break
        page = phone.get(f"/evenings/{night}/next")
        proposed = shown_tables(page)
        winners = [(t + sitting) % 2 for t in range(3)]
        # the head table keeps its winners and gets table 2's; table 2 keeps its losers and
        # gets table 3's winners; the foot keeps its losers and gets the head table's losers
        expected = [
            tables[0][winners[0]] + tables[1][winners[1]],
            tables[1][1 - winners[1]] + tables[2][winners[2]],
            tables[2][1 - winners[2]] + tables[0][1 - winners[0]],
        ]
        for t in range(3):
            assert sorted(n for team in proposed[t] for n in team) == sorted(expected[t])
            old = {frozenset(team) for table in tables for team in table}
            assert not {frozenset(team) for team in proposed[t]} & old  # everyone splits up
        start(phone, page, f"/evenings/{night}/next")
    evening = json.loads(phone.get(f"/evenings/{night}.json").body)
    for row in evening["standings"]:
        assert (row["games"], row["won"], row["points"]) == (3, won[row["name"]], points[row["name"]])
    ranked = [(r["won"], r["points"]) for r in evening["standings"]]
    assert ranked == sorted(ranked, reverse=True)


def test_proposals_from_the_demo_ratings_are_closer_to_even_than_random_splits(app, runner, db):
    """Over the demo data's ratings: each proposal is fairer than the median of 100 random
    splits of the same people into the same tables, and the next game's partners repeat
    none of the first's."""
    assert runner.invoke(args=["demo-data", "--games", "120", "--seed", "3"]).exit_code == 0
    names = [n for (n,) in db.execute("SELECT name FROM players ORDER BY id")]
    names = names[: len(names) // 4 * 4]  # the demo's family, at tables of four
    assert len(names) >= 8
    chances = evening_tables.chances_for(db, names)
    rng = random.Random(5)
    layout = seating.plan(len(names))
    for seed in range(3):
        proposal = seating.arrange(names, layout, chances, seed=seed)
        randoms = []
        for _ in range(100):
            shuffled = rng.sample(names, len(names))
            split = [
                [shuffled[4 * t : 4 * t + 2], shuffled[4 * t + 2 : 4 * t + 4]] for t in range(len(layout))
            ]
            randoms.append(sum(max(c) - min(c) for c in (chances(t) for t in split)))
        assert proposal.spread < statistics.median(randoms), (proposal.spread, statistics.median(randoms))
        partners = {pair for table in proposal.tables for team in table for pair in seating.pairs_of(team)}
        second = seating.arrange(names, layout, chances, avoid=partners, seed=seed)
        assert second.repeats == 0


@pytest.mark.long
def test_six_tables_saving_at_once_lose_nothing(tmp_path):
    """24 people at six tables, each table's phone saving its rounds at the same moment,
    over the app's own server: every save answers, every round is on its own game."""
    database = migrated(tmp_path / "scorekeeper.db")
    instance = tmp_path / "instance"
    instance.mkdir()
    people = [f"Player {n}" for n in range(1, 25)]
    with served(instance, database) as (_, port):
        host = HttpPhone("127.0.0.1", port)
        night = start(host, propose(host, people))
        games = evening_games(database, night)
        assert len(games) == 6
        phones = [HttpPhone("127.0.0.1", port) for _ in games]
        reviews = {}
        answers, problems = {}, []
        barrier = threading.Barrier(len(games))

        def table(index, game):
            try:
                for n in range(3):
                    values = a_round(0, 100 + 10 * index + 5 * n)
                    reviews[index] = check_round(phones[index], f"/games/{game}/rounds/new", values)
                    barrier.wait(timeout=60)
                    answers.setdefault(index, []).append(press_save(phones[index], reviews[index]).status)
            except Exception as error:
                problems.append((index, repr(error)))
                barrier.abort()

        threads = [threading.Thread(target=table, args=(i, g)) for i, g in enumerate(games)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=100)
        assert not problems, problems
        assert all(answers[i] == [303, 303, 303] for i in range(len(games))), answers
        for index, game in enumerate(games):
            melded = query_db(
                database,
                """SELECT e.melded_points FROM round_entries e JOIN rounds r ON r.id = e.round_id
                   JOIN teams t ON t.id = e.team_id WHERE r.game_id = ? AND t.position = 0
                   ORDER BY r.number""",
                (game,),
            )
            assert [m for (m,) in melded] == [100 + 10 * index + 5 * n for n in range(3)]


def test_the_evenings_share_link_opens_it_read_only_without_the_passcode_and_nothing_else(app, phone):
    from scorekeeper.web import passcode

    night = start(phone, propose(phone, TWELVE[:8]))
    page = phone.get(f"/evenings/{night}").text
    link = re.search(r'class="share-link"><a href="http://[^/]+(/e/[^"]+)"', page)[1]
    assert phone.get(f"/evenings/{night}/share.svg").headers["content-type"].startswith("image/svg+xml")
    passcode.set_passcode(app.instance_path, "Evening-2026")
    guest = FlaskPhone(app)
    shared = guest.get(link)
    assert shared.status == 200
    for game in evening_games(app.config["DATABASE"], night):
        assert f'href="{link}/games/{game}"' in shared.text  # each table opens under this link
    links = re.findall(r'href="(/[^"]*)"', shared.text)
    assert not [h for h in links if "/games/" in h and not h.startswith(f"{link}/games/")], links
    assert "Next game" not in shared.text and "Stop sharing" not in shared.text
    for url in (f"/evenings/{night}", f"/evenings/{night}.json", "/", f"/evenings/{night}/share.svg"):
        assert guest.get(url).status in (302, 303), url  # sent to sign in
    # stopped, the link opens nothing; a new link replaces it
    passcode.remove_passcode(app.instance_path)
    form, _ = phone.open_form(f"/evenings/{night}", action_contains="/share/stop")
    assert phone.submit(form, f"/evenings/{night}").status == 303
    assert guest.get(link).status == 404
    form, _ = phone.open_form(f"/evenings/{night}", action_contains="/share/new")
    assert phone.submit(form, f"/evenings/{night}").status == 303
    assert guest.get(link).status == 404
    fresh = re.search(
        r'class="share-link"><a href="http://[^/]+(/e/[^"]+)"', phone.get(f"/evenings/{night}").text
    )[1]
    assert fresh != link and guest.get(fresh).status == 200


@pytest.mark.parametrize("paper, size", [("letter", (612, 792)), ("a4", (595, 842))])
def test_the_printed_evening_has_every_tables_sheet_then_the_standings(app, phone, paper, size):
    """Read back from the PDF: a sheet per table (its teams and totals), then the summary
    with the night's standings in their order."""
    import io

    from pypdf import PdfReader

    from tests.integration.test_sheets import page_texts

    night = start(phone, propose(phone, TWELVE))
    games = evening_games(app.config["DATABASE"], night)
    for n, game in enumerate(games):
        assert save_round(phone, game, a_round(n % 2, 150 + 50 * n)).status == 303
    resp = phone.get(f"/evenings/{night}/evening.pdf?paper={paper}")
    assert resp.status == 200 and resp.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(resp.body))
    assert len(reader.pages) == len(games) + 1
    assert tuple(round(float(v)) for v in reader.pages[0].mediabox[2:]) == size
    texts = page_texts(reader)
    for text, game in zip(texts, games):
        played = game_json(phone, game)
        assert "score sheet" in text
        for team, total in zip(played["teams"], played["totals"]):
            assert team["name"] in text and f"{total:,}" in text
    summary = texts[-1]
    evening = json.loads(phone.get(f"/evenings/{night}.json").body)
    assert "The evening" in summary and "The standings" in summary
    lines = [line for line in summary.splitlines() if re.match(r"^\d+ \S", line)]
    shown = [line.split()[1] for line in lines if len(line.split()) >= 5 and line.split()[3] == "of"]
    assert shown == [row["name"] for row in evening["standings"]]


def test_the_years_game_nights_open_their_evening_pages_games_started_alone_included(app, runner, phone):
    """Games started one at a time make up their night by date, as on the year page;
    that night's evening page shows every one of them."""
    assert runner.invoke(args=["demo-data", "--games", "40", "--seed", "2"]).exit_code == 0
    years = query_db(app.config["DATABASE"], "SELECT DISTINCT substr(night, 1, 4) FROM nights")
    year = years[0][0]
    page = phone.get(f"/years/{year}").text
    nights = re.findall(r'href="/evenings/(\d{4}-\d{2}-\d{2})"', page)
    counted = dict(
        query_db(app.config["DATABASE"], "SELECT night, games FROM nights WHERE night LIKE ?", (f"{year}%",))
    )
    assert sorted(nights) == sorted(counted)
    for night in nights[:10]:
        evening = json.loads(phone.get(f"/evenings/{night}.json").body)
        assert evening["mode"] is None and evening["sittings"] == []
        finished = [g for g in evening["other_games"] if game_json(phone, g)["finished"]]
        assert len(finished) == counted[night], night
        assert phone.get(f"/evenings/{night}").status == 200


def test_records_and_the_player_page_count_tables_and_evening_champions(app, phone):
    night = start(phone, propose(phone, TWELVE))
    games = evening_games(app.config["DATABASE"], night)
    records = phone.get("/records").text
    assert "Most tables in one evening: 3 tables" in html.unescape(re.sub(r"<[^>]+>", "", records))
    assert f"/evenings/{night}" in records
    # the first table's game ends, its first team winning: two players with a win each
    assert save_round(phone, games[0], a_round(0)).status == 303
    assert end_game(phone, games[0]).status == 303
    ids = dict(query_db(app.config["DATABASE"], "SELECT name, id FROM players"))
    winner, partner = game_json(phone, games[0])["teams"][0]["players"]
    for name in (winner, partner):
        assert json.loads(phone.get(f"/players/{ids[name]}.json").body)["evenings"] == {"played": 1, "won": 0}
    # the next game (partners changed): the winner wins again, and leads the night alone
    start(phone, phone.get(f"/evenings/{night}/next"), f"/evenings/{night}/next")
    for game in evening_games(app.config["DATABASE"], night, 2):
        teams = game_json(phone, game)["teams"]
        side = next((i for i, t in enumerate(teams) if winner in t["players"]), None)
        if side is not None:
            assert partner not in teams[side]["players"]
            assert save_round(phone, game, a_round(side)).status == 303
            assert end_game(phone, game).status == 303
    shown = json.loads(phone.get(f"/players/{ids[winner]}.json").body)
    assert shown["evenings"] == {"played": 1, "won": 1}
    assert "Evening champion" in phone.get(f"/players/{ids[winner]}").text
    assert json.loads(phone.get(f"/players/{ids[partner]}.json").body)["evenings"]["won"] == 0


@pytest.mark.long  # 300 demo games made and scored: a second or more
def test_demo_data_makes_evenings_of_several_tables_with_partners_changed(app, runner, phone):
    assert runner.invoke(args=["demo-data", "--games", "300", "--seed", "4"]).exit_code == 0
    database = app.config["DATABASE"]
    nights = [n for (n,) in query_db(database, "SELECT night FROM evenings")]
    assert nights, "no evening of several tables"
    for night in nights:
        evening = json.loads(phone.get(f"/evenings/{night}.json").body)
        assert evening["mode"] == "rotate" and 2 <= len(evening["sittings"]) <= 3
        partnered = set()
        for sitting in evening["sittings"]:
            assert len(sitting) in (2, 3)
            for table in sitting:
                for team in table["teams"]:
                    pair = frozenset(team["players"])
                    assert len(pair) == 2 and pair not in partnered, (night, pair)
                    partnered.add(pair)
    games_a_night = [g for (g,) in query_db(database, "SELECT games FROM nights")]
    assert statistics.median(games_a_night) <= 3  # most nights: one table, a few games


def test_a_second_tap_on_start_from_another_phone_starts_nothing_twice(app, phone):
    night = start(phone, propose(phone, TWELVE[:8]))
    page = phone.get(f"/evenings/{night}/next")
    other = FlaskPhone(app)
    other_page = other.get(f"/evenings/{night}/next")
    start(phone, page, f"/evenings/{night}/next")
    late = other.submit(
        post_form(other_page.text), f"/evenings/{night}/next", button=("action", "start", None)
    )
    assert late.status == 303
    said = " ".join(text for _, text in other.follow(late).flashes())
    assert "started this evening's next game already" in said
    assert len(evening_games(app.config["DATABASE"], night)) == 4  # two tables, two games: not three
    # and a second evening tonight from "Start an evening" is refused the same way
    again = phone.submit(
        post_form(propose(phone, TWELVE[:4]).text), "/evenings/new", button=("action", "start", None)
    )
    assert again.status == 303
    assert "under way tonight already" in " ".join(text for _, text in phone.follow(again).flashes())
    assert len(evening_games(app.config["DATABASE"], night)) == 4


def test_a_shared_evening_shows_its_tables_alone_and_stopping_it_stops_them(app, phone):
    """A game started on its own that night, its link stopped, is nowhere on the evening's
    shared page; a table opens under the evening's link, and no longer once it is stopped."""
    from tests.httpkit import share_token, start_game

    night = start(phone, propose(phone, TWELVE[:4]))
    alone = start_game(phone, "roth", (("", ("Zed",)), ("", ("Yan",))))
    assert save_round(phone, alone, {"went_out": "nobody", 0: {"melded_points": 995}}).status == 303
    form, _ = phone.open_form(f"/games/{alone}", action_contains="/share/stop")
    assert phone.submit(form, f"/games/{alone}").status == 303
    assert "Zed" in phone.get(f"/evenings/{night}").text  # the family's own page shows the night's games
    page = phone.get(f"/evenings/{night}").text
    link = re.search(r'class="share-link"><a href="http://[^/]+(/e/[^"]+)"', page)[1]
    guest = FlaskPhone(app)
    shared = guest.get(link).text
    assert "Zed" not in shared and "Yan" not in shared and "995" not in shared
    (table,) = evening_games(app.config["DATABASE"], night)
    assert guest.get(f"{link}/games/{table}").status == 200
    assert guest.get(f"{link}/games/{alone}").status == 404  # not one of its tables
    assert guest.get(f"/s/{share_token(phone, table)}").status == 200  # the game's own link, apart
    form, _ = phone.open_form(f"/evenings/{night}", action_contains="/share/stop")
    assert phone.submit(form, f"/evenings/{night}").status == 303
    assert guest.get(f"{link}/games/{table}").status == 404


# --- issue 54: what an evening's page shows, versioned; a next game on its own night -----------


def a_game_on(phone, day, names):
    """A game typed in from paper, played on ``day`` (8 pm on the household's clock)."""
    form, url = phone.open_form("/games/new?rules=friends-family")
    values = {f"teams-{t}-players-{p}": name for t, team in enumerate(names) for p, name in enumerate(team)}
    started = phone.submit(form, url, {**values, "kept": "sheet", "played_day": day})
    assert started.status == 303, started.text[:2000]
    return int(started.location.split("/")[2])


def test_an_evenings_page_is_not_told_unchanged_after_its_games_changed(phone):
    """The night's games were "2 games, revisions adding up to 0" before and after one moved
    to another night and another was typed in: the page's version must tell them apart."""
    moved = a_game_on(phone, "2026-01-05", [["Ann", "Bo"], ["Cy", "Di"]])
    stays = a_game_on(phone, "2026-01-05", [["Ed", "Flo"], ["Gus", "Hal"]])
    before = phone.client.get("/evenings/2026-01-05")
    assert before.status_code == 200 and f'href="/games/{moved}"' in before.get_data(as_text=True)
    etag = before.headers["ETag"]
    assert phone.client.get("/evenings/2026-01-05", headers={"If-None-Match": etag}).status_code == 304

    form, url = phone.open_form(f"/games/{moved}/played")
    assert phone.submit(form, url, {"played_day": "2026-01-06"}).status == 303
    typed = a_game_on(phone, "2026-01-05", [["Ida", "Jo"], ["Kit", "Lou"]])
    evening = phone.client.get("/evenings/2026-01-05.json").get_json()
    assert evening["other_games"] == [stays, typed]

    after = phone.client.get("/evenings/2026-01-05", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    page = after.get_data(as_text=True)
    assert f'href="/games/{typed}"' in page and f'href="/games/{moved}"' not in page
    # a player renamed: the standings say the new name, and no revision of a game moved
    etag = after.headers["ETag"]
    assert rename_player(phone, player_ids(phone)["Ed"], "Eddie").status == 303
    renamed = phone.client.get("/evenings/2026-01-05", headers={"If-None-Match": etag})
    # the standings' row: Eddie's colour's swatch, then his name
    assert renamed.status_code == 200 and "</svg> Eddie</th>" in renamed.get_data(as_text=True)


def night_now_in(name):
    """The night it is now on a clock in zone ``name`` (before 6 in the morning: the evening before)."""
    moment = datetime.datetime.now(zoneinfo.ZoneInfo(name)) - datetime.timedelta(hours=6)
    return moment.date().isoformat()


def test_the_next_game_of_an_earlier_evening_is_a_game_of_tonight(app, phone, zone):
    """Yesterday's evening page is still open on a phone, and its Next game is tapped tonight:
    the tables are tonight's (its evening, its night, its year), not yesterday's next game.

    Yesterday is made with the clock: an evening started on a computer set to UTC−12, then
    the computer set to UTC+14 (26 hours ahead: always a later night), as a family's
    computer left on one zone is set to another."""
    zone("Etc/GMT+12")
    before = start(phone, propose(phone, TWELVE[:4]))
    assert before == night_now_in("Etc/GMT+12")
    (first,) = evening_games(app.config["DATABASE"], before)
    assert save_round(phone, first, a_round(0)).status == 303 and end_game(phone, first).status == 303

    zone("Pacific/Kiritimati")
    tonight = night_now_in("Pacific/Kiritimati")
    assert tonight > before
    page = phone.get(f"/evenings/{before}/next")
    assert page.status == 200
    assert f"these tables start the evening of {night_words(tonight)}" in html.unescape(page.text)
    assert start(phone, page, f"/evenings/{before}/next") == tonight
    database = app.config["DATABASE"]
    assert evening_games(database, before) == [first]  # yesterday keeps its one game
    (table,) = evening_games(database, tonight, 1)
    assert query_db(database, "SELECT night FROM games WHERE id = ?", (table,)) == [(tonight,)]
    assert query_db(database, "SELECT mode FROM evenings WHERE night = ?", (tonight,)) == [("rotate",)]
    evening = json.loads(phone.get(f"/evenings/{tonight}.json").body)
    assert [[t["game_id"] for t in sitting] for sitting in evening["sittings"]] == [[table]]
    assert evening["other_games"] == []
    yesterday = json.loads(phone.get(f"/evenings/{before}.json").body)
    assert [[t["game_id"] for t in sitting] for sitting in yesterday["sittings"]] == [[first]]

    # tonight's evening under way, yesterday's page starts nothing: its next game is tonight's
    again = phone.submit(
        post_form(phone.get(f"/evenings/{before}/next").text),
        f"/evenings/{before}/next",
        button=("action", "start", None),
    )
    assert (again.status, again.location) == (303, f"/evenings/{tonight}")
    assert "under way tonight already" in " ".join(text for _, text in phone.follow(again).flashes())
    assert evening_games(database, tonight) == [table] and evening_games(database, before) == [first]


def night_words(night):
    """ "2026-11-26" -> "Thursday 26 November 2026", as the pages name a night in English."""
    day = datetime.date.fromisoformat(night)
    return f"{day:%A} {day.day} {day:%B %Y}"
