"""Two phones at one table, against a real server (`make run`'s, on loopback).

Each phone is its own browser (http.client, its own cookies, so its own
session and CSRF token) and behaves like one: it GETs the form, then POSTs
it, pressing the page's buttons. Every assertion is on the data the app
serves afterwards (/games/<id>.json, /rules/<key>.json, the players' pages)
or on the SQLite file read-only; never on how a refusal is worded or shown.

The game's house rules pay a different going-out bonus each round (100 in
round 1, 200 in round 2, ...), so a round saved under another number than
the one its phone showed scores differently, and shows.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
import time
from dataclasses import dataclass, field

import pytest

from ..helpers import InProcess
from ..httpkit import (
    HttpPhone,
    _app_frame,
    check_round,
    delete_round,
    end_game,
    error_line,
    game_json,
    make_app,
    make_house_rules,
    player_ids,
    press_save,
    query_db,
    rename_player,
    reopen_game,
    save_round,
    start_game,
)

GOING_OUT = "100, 200, 300, 400, 500, 600, 700, 800, 900, 1000"


class ServerErrors(logging.Handler):
    """The app's exceptions, as the server logs them (web/server.py: "Error in ASGI Framework")."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.seen = []

    def emit(self, record):
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            self.seen.append(
                f"{record.getMessage()}: {error_line(error)} (at {_app_frame(error.__traceback__)})"
            )


@dataclass
class Server:
    app: object
    database: object
    host: str
    port: int
    errors: ServerErrors
    phones: list = field(default_factory=list)

    def phone(self):
        p = HttpPhone(self.host, self.port)
        self.phones.append(p)
        return p


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_DATABASE", raising=False)
    database = tmp_path / "race.db"
    app = make_app(database)
    errors = ServerErrors()
    logger = logging.getLogger("scorekeeper.server")
    logger.addHandler(errors)
    served = InProcess(app)
    try:
        yield Server(app, database, "127.0.0.1", served.port, errors)
    finally:
        served.stop()
        logger.removeHandler(errors)


def rv(n, **team0):
    """Round n's entries: team 0 goes out with a clean book; melded points tell rounds apart."""
    return {
        "went_out": "0",
        0: {"book_clean": 1, "melded_points": 100 + 10 * n, **team0},
        1: {"melded_points": 50, "unplayed_points": 5 * n},
    }


def a_game(server, rounds):
    """House rules with a going-out bonus per round and no end, a game, ``rounds`` rounds."""
    s = server.phone()
    key = make_house_rules(s, "Race rules", going_out=GOING_OUT, books_mode="none")
    game = start_game(s, key)
    for n in range(1, rounds + 1):
        resp = save_round(s, game, rv(n))
        assert resp.status in (302, 303) and s.follow(resp).flashes()[0][0] == "success"
    return s, key, game


def entries(game_data):
    return [r["entries"] for r in game_data["rounds"]]


def outcome(phone, resp):
    """What the phone was told: status, and the flashed message after a redirect."""
    if resp.redirect:
        flashes = phone.follow(resp).flashes()
        return f"{resp.status} -> {resp.location} {flashes}"
    return f"{resp.status}"


def no_5xx(server, *responses):
    bad = [r for r in responses if r is not None and r.status >= 500]
    return [f"HTTP {r.status}" for r in bad] + server.errors.seen if bad or server.errors.seen else []


# --- a. an edit of round 3 while round 2 is deleted ------------------------------------------------


@pytest.mark.parametrize("history", ["fresh rounds", "round 3 fixed once before"])
def test_a_edit_refused_when_an_earlier_round_is_deleted(server, history):
    s, _, game = a_game(server, 4)
    if history == "round 3 fixed once before":
        fix = save_round(s, game, {1: {"unplayed_points": 95}}, number=3)
        assert fix.status in (302, 303) and s.follow(fix).flashes()[0][0] == "success"
    before = game_json(s, game)
    a, b = server.phone(), server.phone()

    review = check_round(a, f"/games/{game}/rounds/3/edit", {1: {"melded_points": 555}})
    assert review.number == 3 and review.scores
    deleted = delete_round(b, game, 2)
    assert deleted.status in (302, 303)
    saved = press_save(a, review)
    told = outcome(a, saved)

    after = game_json(s, game)
    expected = [e for i, e in enumerate(entries(before)) if i != 1]
    problems = []
    if any(r["entries"][1]["melded_points"] == 555 for r in after["rounds"]):
        n = next(r["number"] for r in after["rounds"] if r["entries"][1]["melded_points"] == 555)
        problems.append(
            f"A's edit of round 3 was written, to what is now round {n} "
            f"(it was round {n + 1} when A opened round 3)"
        )
    if entries(after) != expected:
        problems.append(
            f"rounds are not the old 1, 3, 4: team 0 melded by round "
            f"{[r['entries'][0]['melded_points'] for r in after['rounds']]} (expected "
            f"{[e[0]['melded_points'] for e in expected]})"
        )
    problems += no_5xx(server, saved)
    assert not problems, f"A was told: {told}\n" + "\n".join(problems)


# --- b. two phones delete the same round -----------------------------------------------------------


@pytest.mark.parametrize("history", ["fresh rounds", "round 2 fixed once before"])
def test_b_two_deletes_of_round_2_delete_one_round(server, history):
    s, _, game = a_game(server, 4)
    if history == "round 2 fixed once before":
        fix = save_round(s, game, {1: {"unplayed_points": 95}}, number=2)
        assert fix.status in (302, 303) and s.follow(fix).flashes()[0][0] == "success"
    before = game_json(s, game)
    a, b = server.phone(), server.phone()
    form_a, page_a = a.open_form(f"/games/{game}/rounds/2/delete")
    form_b, page_b = b.open_form(f"/games/{game}/rounds/2/delete")
    first = a.submit(form_a, page_a)
    assert first.status in (302, 303)
    second = b.submit(form_b, page_b)
    told = outcome(b, second)

    after = game_json(s, game)
    expected = [e for i, e in enumerate(entries(before)) if i != 1]
    assert entries(after) == expected and not no_5xx(server, second), (
        f"B (second delete) was told: {told}; rounds left: {len(after['rounds'])} "
        f"(expected 3), team 0 melded by round {[r['entries'][0]['melded_points'] for r in after['rounds']]}"
        f" (expected {[e[0]['melded_points'] for e in expected]}) {no_5xx(server, second)}"
    )


# --- c. a new round checked, an earlier round deleted, then saved ----------------------------------


def test_c_new_round_saved_as_shown_or_refused(server):
    s, _, game = a_game(server, 4)
    a, b = server.phone(), server.phone()
    mine = rv(5, melded_points=775)
    review = check_round(a, f"/games/{game}/rounds/new", mine)
    assert review.number == 5, review.number
    shown = review.scores  # round 5: going out pays 500
    deleted = delete_round(b, game, 2)
    assert deleted.status in (302, 303)
    saved = press_save(a, review)
    told = outcome(a, saved)

    after = game_json(s, game)
    ours = [r for r in after["rounds"] if r["entries"][0]["melded_points"] == 775]
    problems = no_5xx(server, saved)
    if ours:
        r = ours[0]
        if r["number"] != review.number or r["scores"] != shown:
            problems.append(
                f"A's round was saved as round {r['number']} scoring {r['scores']}, but A's check "
                f"screen showed round {review.number} scoring {shown} (the going-out bonus of "
                f"another round); A was not asked to check again"
            )
    elif "changed on another phone" not in told:  # not saved: A must be told so, and why
        problems.append("A's round was neither saved nor refused with a word of what changed")
    assert not problems, f"A was told: {told}\n" + "\n".join(problems)


# --- d. a save whose revision or version field is left out -----------------------------------------


@pytest.mark.parametrize("action", ["edit round", "delete round", "end game", "reopen"])
def test_d_a_save_without_its_revision_is_refused(server, action):
    s, _, game = a_game(server, 3)
    a = server.phone()
    if action == "reopen":
        assert end_game(s, game).status in (302, 303)
    before = game_json(s, game)
    if action == "edit round":
        review = check_round(a, f"/games/{game}/rounds/2/edit", {1: {"melded_points": 555}})
        assert review.scores
        resp = a.submit(
            review.form, review.page, drop=("revision",), button=review.form.button("save", "action")
        )
    elif action == "delete round":
        resp = delete_round(a, game, 2, drop=("revision",))
    elif action == "end game":
        resp = end_game(a, game, drop=("revision",))
    else:
        resp = reopen_game(a, game, drop=("revision",))
    told = outcome(a, resp) if resp.status < 500 else f"{resp.status}"
    after = game_json(s, game)
    problems = []
    if after["rounds"] != before["rounds"] or after["finished"] != before["finished"]:
        problems.append(
            f"applied: rounds {len(before['rounds'])} -> {len(after['rounds'])}, "
            f"finished {before['finished']} -> {after['finished']}, round 2 team 1 melded "
            f"{before['rounds'][1]['entries'][1]['melded_points']} -> "
            f"{after['rounds'][1]['entries'][1]['melded_points'] if len(after['rounds']) > 1 else None}"
        )
    problems += no_5xx(server, resp)
    assert not problems, f"{action} without its revision field; the phone was told: {told}\n" + "\n".join(
        problems
    )


# --- e. the same house rules, the same player, from two phones -------------------------------------


def test_e_house_rules_saved_from_two_phones(server):
    s = server.phone()
    key = make_house_rules(s, "Shared rules", going_out="100")
    a, b = server.phone(), server.phone()
    form_a, page_a = a.open_form(f"/rules/{key}/edit")
    form_b, page_b = b.open_form(f"/rules/{key}/edit")
    first = a.submit(form_a, page_a, {"going_out": "111"})
    assert first.status in (302, 303)
    second = b.submit(form_b, page_b, {"going_out": "222"})
    told = outcome(b, second)
    rules = s.get(f"/rules/{key}.json")

    going_out = json.loads(rules.body)["going_out"]
    assert going_out == 111 and not no_5xx(server, second), (
        f"B saved over A's change without seeing it: going_out is {going_out} (A saved 111 first, "
        f"B's page was opened before that); B was told: {told} {no_5xx(server, second)}"
    )


def test_e_player_renamed_from_two_phones(server):
    s = server.phone()
    start_game(s, "roth")
    ann = player_ids(s)["Ann"]
    a, b = server.phone(), server.phone()
    form_a, page_a = a.open_form(f"/players/{ann}/rename")
    form_b, page_b = b.open_form(f"/players/{ann}/rename")
    assert a.submit(form_a, page_a, {"name": "Anna"}).status in (302, 303)
    second = b.submit(form_b, page_b, {"name": "Annie"})
    told = outcome(b, second)
    names = {v: k for k, v in player_ids(s).items()}
    assert names[ann] == "Anna" and not no_5xx(server, second), (
        f"the second rename (from a page showing “Ann”) replaced the first: the player is "
        f"“{names[ann]}”; B was told: {told}"
    )


# --- f. a save that changes nothing ----------------------------------------------------------------


def _state(server, game):
    ((revision, updated),) = query_db(
        server.database, "SELECT revision, updated_at FROM games WHERE id = ?", [game]
    )
    ((changes,),) = query_db(server.database, "SELECT COUNT(*) FROM revisions WHERE game_id = ?", [game])
    rounds = query_db(
        server.database, "SELECT number, updated_at FROM rounds WHERE game_id = ? ORDER BY number", [game]
    )
    return {"revision": revision, "changes": changes, "rounds": rounds, "updated_at": updated}


def test_f_a_save_that_changes_nothing_changes_nothing(server):
    s, _, game = a_game(server, 3)
    a, b = server.phone(), server.phone()
    page = s.get(f"/games/{game}").text
    listed = re.search(r"Changes \((\d+)\)", page)[1]
    end_form, end_page = b.open_form(f"/games/{game}/end")  # B is about to end the game
    before = _state(server, game)

    saved = save_round(a, game, {}, number=2)  # check, then save, with every value as it was
    told = outcome(a, saved)
    after = _state(server, game)
    listed_after = re.search(r"Changes \((\d+)\)", s.get(f"/games/{game}").text)[1]
    problems = []
    if after["revision"] != before["revision"]:
        problems.append(
            f"the game's revision moved {before['revision']} -> {after['revision']} "
            f"(updated_at {before['updated_at']} -> {after['updated_at']})"
        )
    if after["changes"] != before["changes"] or listed != listed_after:
        problems.append(
            f"the change log grew: {before['changes']} -> {after['changes']} rows, "
            f"page lists {listed} -> {listed_after}"
        )
    if after["rounds"] != before["rounds"]:
        problems.append(f"rounds were rewritten: {before['rounds']} -> {after['rounds']}")
    ended = b.submit(end_form, end_page)
    if not game_json(s, game)["finished"]:
        problems.append(
            f"so B's End the game (opened before the no-op save) was refused: {outcome(b, ended)}"
        )
    problems += no_5xx(server, saved, ended)
    assert not problems, f"A was told: {told}\n" + "\n".join(problems)


# --- g. many phones at once ------------------------------------------------------------------------


@pytest.mark.long
def test_g_concurrent_writes_all_succeed_and_stay(server):
    s = server.phone()
    endless = make_house_rules(s, "Endless", going_out=GOING_OUT, books_mode="none")
    other = make_house_rules(s, "Other rules", going_out="100")
    game = start_game(s, endless)
    ann = player_ids(s)["Ann"]
    log = {
        "statuses": [],
        "rounds": {},
        "games": [],
        "renames": [],
        "rules": [],
        "new_rules": [],
        "errors": [],
    }
    lock = threading.Lock()
    done = threading.Event()

    def note(resp, what):
        with lock:
            log["statuses"].append((resp.status, what))

    def guard(fn):
        def run():
            try:
                fn()
            except Exception as error:  # a phone that could not go on: recorded, not raised in a thread
                with lock:
                    log["errors"].append(f"{fn.__name__}: {error_line(error)}")

        return run

    @guard
    def rounds():
        w = server.phone()
        n = attempts = 0
        try:
            while n < 30 and attempts < 45:
                attempts += 1
                review = check_round(w, f"/games/{game}/rounds/new", rv(n + 1))
                note(review.resp, "check round")
                if review.form is None or not review.scores:
                    continue
                resp = press_save(w, review)
                note(resp, f"save round {review.number}")
                if resp.redirect:
                    flashes = w.follow(resp).flashes()
                    if flashes and flashes[0][0] == "success":
                        with lock:
                            log["rounds"][review.number] = rv(n + 1)[0]["melded_points"]
                        n += 1
        finally:
            done.set()

    @guard
    def games():
        p = server.phone()
        for i in range(12):
            form, page = p.open_form("/games/new?rules=roth")
            resp = p.submit(
                form, page, {"teams-0-players-0": f"North {i}", "teams-1-players-0": f"South {i}"}
            )
            note(resp, "start game")
            if resp.status in (302, 303):
                with lock:
                    log["games"].append((int(resp.location.rsplit("/", 1)[1]), i))

    @guard
    def renames():
        p = server.phone()
        for i in range(16):
            resp = rename_player(p, ann, f"Ann {i}")
            note(resp, "rename")
            if resp.status in (302, 303):
                with lock:
                    log["renames"].append(f"Ann {i}")

    @guard
    def house_rules():
        p = server.phone()
        for i in range(16):
            form, page = p.open_form(f"/rules/{other}/edit")
            resp = p.submit(form, page, {"going_out": str(100 + 5 * i)})
            note(resp, "save house rules")
            if resp.status in (302, 303):
                with lock:
                    log["rules"].append(100 + 5 * i)

    @guard
    def new_rules():
        p = server.phone()
        for i in range(10):
            form, page = p.open_form("/rules/new?from=tablet")
            resp = p.submit(form, page, {"name": f"Rules {i}"})
            note(resp, "new house rules")
            if resp.status in (302, 303):
                with lock:
                    log["new_rules"].append((resp.location.rsplit("/", 1)[1], f"Rules {i}"))

    @guard
    def readers():
        p = server.phone()
        while not done.is_set():
            for url in ("/", "/history", "/players", f"/games/{game}.json", f"/games/{game}"):
                note(p.get(url), f"GET {url}")

    threads = [
        threading.Thread(target=f, name=f.__name__)
        for f in (rounds, games, renames, house_rules, new_rules, readers)
    ]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)

    problems = list(log["errors"])
    failed = [(st, what) for st, what in log["statuses"] if st >= 500]
    if failed:
        by = {}
        for _st, what in failed:
            by[what.split(" round")[0]] = by.get(what.split(" round")[0], 0) + 1
        problems.append(
            f"{len(failed)} of {len(log['statuses'])} requests answered 5xx "
            f"({', '.join(f'{k}: {v}' for k, v in sorted(by.items()))}); the app said: "
            + "; ".join(sorted({re.sub(r"/\d+", "/N", e) for e in server.errors.seen})[:6])
        )
    # every acknowledged write is there
    data = game_json(s, game)
    melded = {r["number"]: r["entries"][0]["melded_points"] for r in data["rounds"]}
    lost = {n: m for n, m in log["rounds"].items() if melded.get(n) != m}
    if lost or len(log["rounds"]) < 30:
        problems.append(f"rounds: {len(log['rounds'])} of 30 saved; acknowledged but not there: {lost}")
    for game_id, i in log["games"]:
        g = game_json(s, game_id)
        if [t["players"] for t in g["teams"]] != [[f"North {i}"], [f"South {i}"]]:
            problems.append(f"game {game_id} is not the one started: {g['teams']}")
    names = {v: k for k, v in player_ids(s).items()}
    if log["renames"] and names.get(ann) != log["renames"][-1]:
        problems.append(f"Ann is “{names.get(ann)}”, the last acknowledged rename was “{log['renames'][-1]}”")

    going_out = json.loads(s.get(f"/rules/{other}.json").body)["going_out"]
    if log["rules"] and going_out != log["rules"][-1]:
        problems.append(
            f"house rules say going out {going_out}; the last acknowledged save was {log['rules'][-1]}"
        )
    for key, name in log["new_rules"]:
        resp = s.get(f"/rules/{key}.json")
        if resp.status != 200 or json.loads(resp.body)["name"] != name:
            problems.append(f"new house rules {name} ({key}) acknowledged but {resp.status}")
    summary = (
        f"{len(log['statuses'])} requests in {time.monotonic() - started:.1f}s: rounds saved "
        f"{len(log['rounds'])}/30, games started {len(log['games'])}/12, renames "
        f"{len(log['renames'])}/16, house-rules saves {len(log['rules'])}/16, new house rules "
        f"{len(log['new_rules'])}/10"
    )
    print(summary)
    assert not problems, summary + "\n" + "\n".join(problems)


# --- ending, reopening and rounds on two phones ----------------------------------------------------


def test_a_round_fix_is_refused_once_the_game_is_ended(server):
    s, _, game = a_game(server, 3)
    a, b = server.phone(), server.phone()
    review = check_round(a, f"/games/{game}/rounds/2/edit", {1: {"melded_points": 555}})
    assert review.scores
    assert end_game(b, game).status in (302, 303)
    saved = press_save(a, review)
    after = game_json(s, game)
    assert (
        after["finished"]
        and after["rounds"][1]["entries"][1]["melded_points"] != 555
        and not no_5xx(server, saved)
    ), f"A was told {outcome(a, saved)}; finished={after['finished']}"


def test_ending_is_refused_once_a_round_was_fixed_meanwhile(server):
    s, _, game = a_game(server, 3)
    a, b = server.phone(), server.phone()
    form, page = a.open_form(f"/games/{game}/end")
    fixed = save_round(b, game, {1: {"melded_points": 555}}, number=2)
    assert fixed.status in (302, 303) and b.follow(fixed).flashes()[0][0] == "success"
    ended = a.submit(form, page)
    after = game_json(s, game)
    assert not after["finished"] and not no_5xx(server, ended), (
        f"the game was ended from a page showing totals from before round 2 was fixed: {outcome(a, ended)}"
    )


def test_a_new_round_is_refused_once_the_game_is_ended(server):
    s, _, game = a_game(server, 3)
    a, b = server.phone(), server.phone()
    review = check_round(a, f"/games/{game}/rounds/new", rv(4, melded_points=775))
    assert review.number == 4
    assert end_game(b, game).status in (302, 303)
    saved = press_save(a, review)
    after = game_json(s, game)
    assert len(after["rounds"]) == 3 and after["finished"] and not no_5xx(server, saved), (
        f"A was told {outcome(a, saved)}; rounds {len(after['rounds'])}, finished {after['finished']}"
    )


def test_ending_is_refused_once_a_new_round_was_saved_meanwhile(server):
    s, _, game = a_game(server, 3)
    a, b = server.phone(), server.phone()
    form, page = a.open_form(f"/games/{game}/end")
    saved = save_round(b, game, rv(4))
    assert saved.status in (302, 303) and b.follow(saved).flashes()[0][0] == "success"
    ended = a.submit(form, page)
    after = game_json(s, game)
    assert not after["finished"] and len(after["rounds"]) == 4 and not no_5xx(server, ended), (
        f"ended from a page that did not show round 4: {outcome(a, ended)}"
    )


def test_reopen_on_two_phones_reopens_once(server):
    s, _, game = a_game(server, 2)
    assert end_game(s, game).status in (302, 303)
    a, b = server.phone(), server.phone()
    form_a, page_a = a.open_form(f"/games/{game}", action_contains="/reopen")
    form_b, page_b = b.open_form(f"/games/{game}", action_contains="/reopen")
    assert a.submit(form_a, page_a).status in (302, 303)
    # A fixes a round and ends the game again; B's reopen button is from before all that
    fixed = save_round(a, game, {1: {"melded_points": 555}}, number=1)
    assert fixed.status in (302, 303)
    assert end_game(a, game).status in (302, 303)
    second = b.submit(form_b, page_b)
    after = game_json(s, game)
    reopened = query_db(
        server.database, "SELECT COUNT(*) FROM revisions WHERE game_id = ? AND action = 'reopened'", [game]
    )[0][0]
    assert after["finished"] and reopened == 1 and not no_5xx(server, second), (
        f"B's stale Reopen was applied: {outcome(b, second)}; reopened {reopened} times"
    )


# --- a game deleted on one phone while another changes it (issue 54) ------------------------------


def deletions(server, game):
    """The revisions the game's deletions made."""
    sql = "SELECT revision FROM revisions WHERE game_id = ? AND action = 'game-deleted'"
    return query_db(server.database, sql, [game])


def restore(phone, game):
    """Restore the game from the deleted games (the first Restore: the latest deleted)."""
    form, page = phone.open_form("/games/deleted")
    assert form.action == f"/games/{game}/restore", form.action
    assert phone.submit(form, page).status == 303


def at_once(**taps):
    """Each of ``taps`` (a name: a function that sends a request) sent from its own thread, at
    the same moment; their answers by name."""
    together, answers = threading.Barrier(len(taps)), {}

    def tap(name, send):
        together.wait()
        answers[name] = send()

    threads = [threading.Thread(target=tap, args=item) for item in taps.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return answers


def test_two_phones_deleting_the_same_game_delete_it_once(server):
    _, _, game = a_game(server, 2)
    a, b = server.phone(), server.phone()
    form_a, page_a = a.open_form(f"/games/{game}/delete")
    form_b, page_b = b.open_form(f"/games/{game}/delete")
    seen = int(form_a.value("revision"))
    first = a.submit(form_a, page_a)
    assert (first.status, first.location) == (303, "/history")
    second = b.submit(form_b, page_b)
    # B is told, on the deleted game's page, that nothing was done
    assert second.status == 404 and "Nothing was saved: the game was deleted" in second.text
    assert deletions(server, game) == [(seen + 1,)] and not no_5xx(server, first, second)


def test_a_round_saved_on_a_game_deleted_meanwhile_is_refused_and_told(server):
    s, _, game = a_game(server, 3)
    before = game_json(s, game)
    a, b = server.phone(), server.phone()
    review = check_round(a, f"/games/{game}/rounds/new", rv(4, melded_points=775))
    assert review.number == 4
    form, page = b.open_form(f"/games/{game}/delete")
    assert b.submit(form, page).status == 303
    saved = press_save(a, review)
    told = a.follow(saved) if saved.redirect else saved
    assert told.status == 404 and "This game was deleted" in told.text, outcome(a, saved)
    restore(b, game)
    after = game_json(s, game)
    assert entries(after) == entries(before) and not no_5xx(server, saved)


def test_a_delete_from_a_page_older_than_a_change_is_refused(server):
    s, _, game = a_game(server, 3)
    a, b = server.phone(), server.phone()
    form, page = a.open_form(f"/games/{game}/delete")  # the page shows 3 rounds
    saved = save_round(b, game, rv(4))
    assert saved.status == 303 and b.follow(saved).flashes()[0][0] == "success"
    refused = a.submit(form, page)
    assert refused.location == f"/games/{game}"
    flashes = a.follow(refused).flashes()
    assert flashes[0] == (
        "error",
        "Someone changed this game on another phone since you opened this page, so nothing was saved.",
    )
    assert ("info", "Meanwhile: Round 4 entered.") in flashes
    assert len(game_json(s, game)["rounds"]) == 4 and deletions(server, game) == []


@pytest.mark.long  # eight rounds of two phones at once on a real server (about 4 s)
def test_a_delete_and_a_save_at_the_same_moment_one_goes_the_other_is_told(server):
    """Phone A taps Delete while phone B taps Save, at the same moment, again and again: the
    one that comes second is refused and told, never applied over the other (a round saved
    into a deleted game, or a game deleted from a page without its last round)."""
    s, _, game = a_game(server, 1)
    seen = {"deleted first": 0, "saved first": 0}
    for n in range(2, 10):
        a, b = server.phone(), server.phone()
        form, page = a.open_form(f"/games/{game}/delete")
        revision = int(form.value("revision"))
        review = check_round(b, f"/games/{game}/rounds/new", rv(n))
        assert review.number == n
        answers = at_once(
            delete=functools.partial(a.submit, form, page), save=functools.partial(press_save, b, review)
        )
        assert not no_5xx(server, *answers.values())
        gone = [row for row in deletions(server, game) if row[0] > revision]
        rounds = query_db(server.database, "SELECT COUNT(*) FROM rounds WHERE game_id = ?", [game])[0][0]
        if gone:  # A's delete went first: B's round is not in the game, and B was told
            seen["deleted first"] += 1
            assert gone == [(revision + 1,)] and rounds == n - 1
            told = b.follow(answers["save"]) if answers["save"].redirect else answers["save"]
            assert told.status == 404 and "This game was deleted" in told.text
            restore(a, game)
            save = save_round(s, game, rv(n))  # the table saves its round again
            assert save.status == 303 and s.follow(save).flashes()[0][0] == "success"
        else:  # B's save went first: A's delete, from a page without that round, refused
            seen["saved first"] += 1
            assert rounds == n and answers["delete"].location == f"/games/{game}"
            assert a.follow(answers["delete"]).flashes()[0][0] == "error"
    assert len(game_json(s, game)["rounds"]) == 9, seen
