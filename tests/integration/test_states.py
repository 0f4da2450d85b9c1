"""Games, evenings and the history as state machines (issue 42): Hypothesis walks their
states at random through the app's HTTP interface, from two phones, with the computer's
time zone changing between steps. After every step: no answer of 500 or more, a game's
page and its JSON agree, every player sits once in every sitting of an evening, and the
summaries kept with every change equal what ``recompute-scores`` makes of the rounds.

Small in `make test` (up to ``STEPS`` steps, ``RUNS`` runs each of games and evenings, the
evenings' half rotating and half progressive, three tests that xdist can share out: about
10 s each); ten times as many runs, and longer, in `make test-deep`. Each of issue 42's guards taken out
again fails one of them (tried: a night worked out anew from the zone, a progressive
evening of tables of four only, a table without a result taken to have a winner), though
finding the failing walk and shrinking it then takes minutes.
"""

import html
import os
import re
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorekeeper import create_app
from scorekeeper.services import ratings, summaries
from scorekeeper.storage.db import connect

from ..helpers import DEEP
from ..httpkit import (
    FlaskPhone,
    check_round,
    end_game,
    game_json,
    migrated,
    post_form,
    press_save,
    reopen_game,
    start_game,
)

# two walks of about 10 s quiet; the evenings' took 99 s in a run beside two other suites
# (load 10 on two cores), near the 120 s it had. A failing walk shrinks for minutes, and
# is cut off here, failed
pytestmark = [pytest.mark.timeout(300), pytest.mark.long]  # make check leaves them to make test

RUNS = 200 if DEEP else 20
STEPS = 40 if DEEP else 25
ZONES = ["UTC", "Pacific/Kiritimati", "America/Los_Angeles", "Asia/Kolkata"]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kit", "Lou"]
SUMMARIES = ("player_games", "player_stats", "player_books", "partnerships", "rivalries", "game_counts")
SUMMARIES += ("nights", "night_players", "year_pairs", "game_records", "player_ratings", "pair_games")


def tables_now(db):
    return {name: sorted(db.execute(f"SELECT * FROM {name}").fetchall()) for name in SUMMARIES}


def kept_equal_rebuilt(db):
    ratings.catch_up(db)
    kept = tables_now(db)
    db.execute("BEGIN IMMEDIATE")
    try:
        summaries.rebuild(db)
        assert tables_now(db) == kept, "the kept summaries differ from recompute-scores"
    finally:
        db.execute("ROLLBACK")


def served_ok(resp, what):
    assert resp.status < 500, f"{what}: {resp.status} {resp.error or ''} at {resp.where or ''}"
    return resp


def number(text):
    """A number as a page shows it ("1,234", "−40") as an int."""
    return int(text.replace(",", "").replace("\u2212", "-"))


def totals_shown(page):
    found = re.findall(r'class="big-total"><span class="visually-hidden">Total: </span>([^<]+)<', page)
    return [int(t.replace(",", "").replace("\u2212", "-")) for t in found]


class Household(RuleBasedStateMachine):
    """The app on its own database, two phones, the computer's clock."""

    def __init__(self):
        super().__init__()
        self.folder = tempfile.TemporaryDirectory()
        database = Path(self.folder.name) / "scorekeeper.db"
        migrated(database)
        self.app = create_app({"TESTING": True, "DATABASE": str(database), "WTF_CSRF_ENABLED": False})
        self.app.config["SHEETS_IN_BACKGROUND"] = False
        self.db = connect(str(database))
        self.db.catch_up_later = lambda: None  # the invariant catches up
        self.phones = [FlaskPhone(self.app), FlaskPhone(self.app)]
        self.games = []
        self.kept_pages = []  # (phone, form, page): pages left open, to post again later
        self.zone_before = os.environ.get("TZ")  # the run's own zone, put back at the end
        self.checked = {}  # each check's last (data_version, zone): see changed_since()

    def teardown(self):
        self.db.close()
        self.folder.cleanup()
        if self.zone_before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = self.zone_before
        time.tzset()

    @initialize(zone=st.sampled_from(ZONES))
    def the_clock(self, zone):
        self.set_zone(zone)

    def set_zone(self, zone):
        os.environ["TZ"] = zone
        time.tzset()

    @rule(zone=st.sampled_from(ZONES))
    def the_family_sets_the_clock(self, zone):
        self.set_zone(zone)

    def changed_since(self, check):
        """Whether anything was committed (SQLite's ``data_version``, which another
        connection's commit changes) or the zone set since ``check`` last ran: a check of
        the same data on the same clock gives the same answer, so it runs again only after
        a step that changed one of them (most steps are refused, or only read)."""
        now = (self.db.execute("PRAGMA data_version").fetchone()[0], os.environ.get("TZ"))
        if self.checked.get(check) == now:
            return False
        self.checked[check] = now
        return True

    @invariant()
    def summaries_are_what_a_rebuild_makes(self):
        if self.changed_since("summaries"):
            kept_equal_rebuilt(self.db)


class Games(Household):
    """Whole games: rounds, undo, fix, delete, end, reopen, share links, renames, dates,
    rule sets edited and deleted, stale pages posted again."""

    @rule(
        phone=st.integers(0, 1),
        teams=st.integers(2, 3),
        seed=st.integers(0, 99),
        rules=st.sampled_from(["partnership", "roth", "friends-family", "house"]),
    )
    def start_a_game(self, phone, teams, seed, rules):
        if len(self.games) >= 4:
            return
        if rules == "house":
            rules = self.house_rules()
        people = NAMES[seed % 6 :] + NAMES[: seed % 6]
        seated = [("", tuple(people[2 * t : 2 * t + 2])) for t in range(teams)]
        self.games.append(start_game(self.phones[phone], rules, seated))

    @rule(seed=st.integers(0, 99), hour=st.integers(0, 5))
    def a_game_played_through(self, seed, hour):
        """A game the table played to its end: one round, ended, in the small hours (whose
        night a time zone moves)."""
        if len(self.games) >= 4:
            return
        self.start_a_game(0, 2, seed, "partnership")
        game = self.games[-1]
        review = check_round(self.phones[0], f"/games/{game}/rounds/new", {0: {"melded_points": "150"}})
        served_ok(press_save(self.phones[0], review), "save")
        served_ok(end_game(self.phones[0], game), "end")
        self.correct_the_date(len(self.games) - 1, 2025, 12, hour)

    def house_rules(self):
        phone = self.phones[0]
        form, page = phone.open_form("/rules/new?from=roth")
        served_ok(phone.submit(form, page, {"name": f"House {len(self.games)}"}), "new house rules")
        found = re.findall(r'href="/rules/(house-\d+)"', phone.get("/rules").text)
        return found[-1]

    def game(self, index):
        return self.games[index % len(self.games)]

    @precondition(lambda self: self.games)
    @rule(index=st.integers(0, 9), phone=st.integers(0, 1), out=st.integers(-1, 2), points=st.integers(0, 80))
    def enter_a_round(self, index, phone, out, points):
        game = self.game(index)
        played = game_json(self.phones[phone], game)
        if played["finished"] or out >= len(played["teams"]):
            return
        values = {"went_out": str(out) if out >= 0 else "nobody", 0: {"melded_points": str(points * 5)}}
        review = check_round(self.phones[phone], f"/games/{game}/rounds/new", values)
        served_ok(review.resp, "check")
        if review.form is not None and review.form.value("checked"):
            served_ok(press_save(self.phones[phone], review), "save")
            self.kept_pages.append((phone, review.form, review.page))

    @precondition(lambda self: self.kept_pages)
    @rule(which=st.integers(0, 9))
    def a_page_left_open_is_posted_again(self, which):
        phone, form, page = self.kept_pages[which % len(self.kept_pages)]
        served_ok(self.phones[phone].submit(form, page), "an old page posted again")

    @precondition(lambda self: self.games)
    @rule(
        index=st.integers(0, 9), phone=st.integers(0, 1), number=st.integers(1, 4), points=st.integers(0, 80)
    )
    def fix_a_round(self, index, phone, number, points):
        game = self.game(index)
        resp = self.phones[phone].get(f"/games/{game}/rounds/{number}/edit")
        served_ok(resp, "fix")
        if resp.status == 200 and post_form(resp.text) is not None:
            review = check_round(
                self.phones[phone],
                f"/games/{game}/rounds/{number}/edit",
                {0: {"melded_points": str(points * 5)}},
            )
            if review.form is not None and review.form.value("checked"):
                served_ok(press_save(self.phones[phone], review), "save a fix")

    @precondition(lambda self: self.games)
    @rule(index=st.integers(0, 9), phone=st.integers(0, 1), number=st.integers(1, 4))
    def delete_a_round(self, index, phone, number):
        game = self.game(index)
        resp = self.phones[phone].get(f"/games/{game}/rounds/{number}/delete")
        served_ok(resp, "delete")
        if resp.status == 200 and post_form(resp.text) is not None:
            served_ok(
                self.phones[phone].submit(post_form(resp.text), f"/games/{game}/rounds/{number}/delete"),
                "delete",
            )

    @precondition(lambda self: self.games)
    @rule(index=st.integers(0, 9), phone=st.integers(0, 1))
    def undo_the_last_round(self, index, phone):
        game = self.game(index)
        page = self.phones[phone].get(f"/games/{game}")
        form = post_form(page.text, "/undo")
        if form is not None:
            served_ok(self.phones[phone].submit(form, f"/games/{game}"), "undo")

    @precondition(lambda self: self.games)
    @rule(index=st.integers(0, 9), phone=st.integers(0, 1), reopen=st.booleans())
    def end_or_reopen(self, index, phone, reopen):
        game = self.game(index)
        page = self.phones[phone].get(f"/games/{game}").text
        if reopen and "/reopen" in page:
            served_ok(reopen_game(self.phones[phone], game), "reopen")
        elif "/end" in page:
            served_ok(end_game(self.phones[phone], game), "end")

    @precondition(lambda self: self.games)
    @rule(
        index=st.integers(0, 9),
        year=st.integers(2023, 2026),
        month=st.integers(1, 12),
        hour=st.integers(0, 23),
    )
    def correct_the_date(self, index, year, month, hour):
        game = self.game(index)
        form, page = self.phones[0].open_form(f"/games/{game}/played")
        values = {"played_day": f"{year}-{month:02d}-15", "played_time": f"{hour:02d}:30"}
        served_ok(self.phones[0].submit(form, page, values), "date")

    @precondition(lambda self: self.games)
    @rule(index=st.integers(0, 9), stop=st.booleans())
    def share_or_stop(self, index, stop):
        game = self.game(index)
        page = self.phones[1].get(f"/games/{game}").text
        form = post_form(page, "/share/stop" if stop else "/share/new")
        if form is not None:
            served_ok(self.phones[1].submit(form, f"/games/{game}"), "share")

    @rule(player=st.integers(1, 8), name=st.sampled_from(["Zed", "ann", "Bo B", "Émile"]))
    def rename_a_player(self, player, name):
        resp = self.phones[0].get(f"/players/{player}/rename")
        if resp.status == 200:
            served_ok(
                self.phones[0].submit(post_form(resp.text), f"/players/{player}/rename", {"name": name}),
                "rename",
            )

    @rule(delete=st.booleans())
    def edit_or_delete_house_rules(self, delete):
        found = re.findall(r'href="/rules/(house-\d+)"', self.phones[0].get("/rules").text)
        if not found:
            return
        key = found[0]
        url = f"/rules/{key}/delete" if delete else f"/rules/{key}/edit"
        resp = self.phones[0].get(url)
        served_ok(resp, url)
        if resp.status == 200 and post_form(resp.text) is not None:
            served_ok(
                self.phones[0].submit(
                    post_form(resp.text), url, {} if delete else {"rules-going_out": "150"}
                ),
                url,
            )

    @invariant()
    def each_game_page_and_its_json_agree(self):
        if not self.changed_since("game pages"):
            return
        for game in self.games:
            page = self.phones[0].get(f"/games/{game}")
            served_ok(page, "game page")
            data = game_json(self.phones[0], game)
            assert totals_shown(page.text) == data["totals"], (game, data["totals"])


class Evenings(Household):
    """Whole evenings: 4 to 24 people, both modes, rounds, ends, reopens, ties, abandoned
    tables, next games, and a stale proposal posted again."""

    PROGRESSIVE = None  # each kind of evening is a test of its own (below)

    @initialize(people=st.integers(4, 24))
    def start_the_evening(self, people):
        from .test_evenings import propose, start

        progressive = self.PROGRESSIVE

        self.names = [f"{NAMES[i % 12]}{'' if i < 12 else i // 12}" for i in range(people)]
        proposal = propose(self.phones[0], self.names, mode="progressive" if progressive else "rotate")
        served_ok(proposal, "propose")
        self.night = start(self.phones[0], proposal)
        self.stale = []

    def tables(self):
        return [
            g
            for (g,) in self.db.execute(
                "SELECT game_id FROM evening_games WHERE night = ? AND sitting = "
                "(SELECT MAX(sitting) FROM evening_games WHERE night = ?) ORDER BY table_number",
                [self.night, self.night],
            )
        ]

    @rule(
        table=st.integers(0, 5), phone=st.integers(0, 1), result=st.sampled_from(["0", "1", "tie", "nobody"])
    )
    def a_round_at_a_table(self, table, phone, result):
        games = self.tables()
        game = games[table % len(games)]
        played = game_json(self.phones[phone], game)
        if played["finished"]:
            return
        teams = len(played["teams"])
        if result == "tie":
            values = {"went_out": "nobody", **{t: {"melded_points": "100"} for t in range(teams)}}
        elif result == "nobody":
            values = {"went_out": "nobody"}
        else:
            values = {"went_out": result, int(result): {"book_clean": "1", "melded_points": "150"}}
        review = check_round(self.phones[phone], f"/games/{game}/rounds/new", values)
        served_ok(review.resp, "check")
        if review.form is not None and review.form.value("checked"):
            served_ok(press_save(self.phones[phone], review), "save")

    @rule(table=st.integers(0, 5), phone=st.integers(0, 1), reopen=st.booleans())
    def a_table_ends_or_reopens(self, table, phone, reopen):
        games = self.tables()
        game = games[table % len(games)]
        page = self.phones[phone].get(f"/games/{game}").text
        if reopen and "/reopen" in page:
            served_ok(reopen_game(self.phones[phone], game), "reopen")
        elif "/end" in page:
            served_ok(end_game(self.phones[phone], game), "end")  # before any round: no result

    @rule(phone=st.integers(0, 1), start=st.booleans(), again=st.booleans())
    def the_next_game(self, phone, start, again):

        page = served_ok(self.phones[phone].get(f"/evenings/{self.night}/next"), "next game")
        self.stale.append(page)
        if again:
            page = self.stale[0]  # a proposal page left open on a phone
        proposed = self.phones[phone].submit(
            post_form(page.text), f"/evenings/{self.night}/next", button=("action", "propose", None)
        )
        served_ok(proposed, "propose")
        if start and proposed.status == 200 and post_form(proposed.text) is not None:
            resp = self.phones[phone].submit(
                post_form(proposed.text), f"/evenings/{self.night}/next", button=("action", "start", None)
            )
            served_ok(resp, "start")

    @invariant()
    def everyone_sits_once_in_every_sitting(self):
        seated = self.db.execute(
            """SELECT eg.sitting, tp.player_id FROM evening_games eg JOIN teams t ON t.game_id = eg.game_id
               JOIN team_players tp ON tp.team_id = t.id WHERE eg.night = ?""",
            [self.night],
        ).fetchall()
        per_sitting = {}
        for sitting, player in seated:
            per_sitting.setdefault(sitting, []).append(player)
        for sitting, players in per_sitting.items():
            assert len(players) == len(set(players)) == len(self.names), (sitting, players)

    @invariant()
    def the_evening_page_and_its_json_agree(self):
        if not self.changed_since("evening page"):
            return
        page = served_ok(self.phones[1].get(f"/evenings/{self.night}"), "evening")
        data = served_ok(self.phones[1].get(f"/evenings/{self.night}.json"), "evening json")
        import json

        evening = json.loads(data.body)
        standings = page.text.split('class="values evening-standings"', 1)[1].split("</table>", 1)[0]
        shown = [
            (html.unescape(name), int(won), int(games), number(points))
            for name, won, games, points in re.findall(
                # each name after its colour's swatch (services/colours.py)
                r'<th scope="row"><svg class="swatch"[^>]*><path [^>]*/></svg> ([^<]*)</th>'
                r"<td>(\d+)&nbsp;of&nbsp;(\d+)</td><td>([^<]+)</td>",
                standings,
            )
        ]
        assert shown == [(r["name"], r["won"], r["games"], r["points"]) for r in evening["standings"]]
        if evening["sittings"]:  # the tables shown are the latest sitting's, with their totals
            tables = page.text.split('class="evening-tables"', 1)[1].split("</ol>", 1)[0]
            totals = [number(t) for t in re.findall(r"</th>\s*<td>([^<]+)</td></tr>", tables)]
            assert totals == [team["total"] for table in evening["sittings"][-1] for team in table["teams"]]


CHECKED = settings(
    max_examples=RUNS,
    stateful_step_count=STEPS,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestGames = Games.TestCase
TestGames.settings = CHECKED


class RotatingEvenings(Evenings):
    PROGRESSIVE = False


class ProgressiveEvenings(Evenings):
    PROGRESSIVE = True


# the two kinds of evening apart, each half the runs: the evenings' machine, the longest
# test of the suite, set xdist's tail alone (21-37 s quiet); the same runs in all
HALF = settings(CHECKED, max_examples=RUNS // 2)
TestRotatingEvenings = RotatingEvenings.TestCase
TestRotatingEvenings.settings = HALF
TestProgressiveEvenings = ProgressiveEvenings.TestCase
TestProgressiveEvenings.settings = HALF
