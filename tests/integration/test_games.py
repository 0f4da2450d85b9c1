"""Playing a game through the app: the flows and every refusal, with real requests."""

import html
import re

import pytest

from scorekeeper import create_app
from scorekeeper.scoring import RULESETS, VARIANTS, RuleSet, TeamRound, standings, variant_of
from scorekeeper.services import game_model, players, rulesets

from ..helpers import TEAMS, posted, text


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # one test below turns it back on
    return app


def new_game_form(client, rules="roth"):
    return posted(client.get(f"/games/new?rules={rules}"))


def start(client, rules="roth", **extra):
    response = client.post("/games/new", data={**new_game_form(client, rules), **TEAMS, **extra})
    assert response.status_code == 303, text(response)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def fields(*teams, went_out="nobody"):
    """Form data for a round: one dict per team, keys as the form names them."""
    data = {"went_out": went_out}
    for i, team in enumerate(teams):
        for name, value in team.items():
            data[f"teams-{i}-{name}"] = str(value)
    return data


def hidden(response, name):
    match = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', response.get_data(as_text=True))
    return match[1] if match else None


def page_after(client, url, data):
    """Post the round form without saving (Check, − / +, Add up): the app answers with
    a redirect to a GET of the same values (post/redirect/get); that page."""
    response = client.post(url, data=data)
    assert response.status_code == 303, text(response)
    location = response.headers["Location"]
    assert location.startswith(url + "?"), location
    return client.get(location)


def enter(client, game_id, *teams, went_out="nobody", url=None, expect_warnings=False):
    """Check a round, then save it (anyway, if the engine warned)."""
    url = url or f"/games/{game_id}/rounds/new"
    form = client.get(url)
    data = {
        **fields(*teams, went_out=went_out),
        "revision": hidden(form, "revision"),
        "round_id": hidden(form, "round_id"),
    }
    review = page_after(client, url, {**data, "action": "check"})
    assert review.status_code == 200, text(review)
    page = text(review)
    assert ("Save anyway" in page) == expect_warnings, page
    saved = client.post(url, data={**data, "action": "save", "checked": hidden(review, "checked")})
    assert saved.status_code == 303, text(saved)
    return saved


def stored(db, game_id):
    return game_model.load_game(db, game_id)


# --- starting a game ----------------------------------------------------------------


def test_a_new_game_starts_from_the_households_latest_rules(client, make_game):
    """A Buraco household's "New game" is Buraco, its tab named so (a native reading found
    "Nova partida · Mão e Pé" there); a link's ?rules= still chooses."""
    make_game("buraco", [[TeamRound(melded_points=300), TeamRound(melded_points=100)]], day="2026-03-05")
    page = text(client.get("/games/new"))
    assert "<title>New game · Buraco</title>" in page
    assert f"Rule set: {RULESETS['buraco'].name}</summary>" in page
    assert f"Rule set: {RULESETS['canasta'].name}</summary>" in text(client.get("/games/new?rules=canasta"))


def test_new_game_page_offers_every_rule_set(client):
    page = text(client.get("/games/new"))
    for key, rules in RULESETS.items():
        if variant_of(key) in (None, key):  # a variant is offered with its preset (below)
            assert f'value="{key}"' in page and rules.name in page
    # the first preset is chosen, and its variants are the second choice
    for variant in VARIANTS["friends-family"]:
        checked = "checked " if variant.key == "friends-family" else ""
        radio = f'<input {checked}id="variant-\\d" name="variant" type="radio" value="{variant.key}">'
        assert re.search(radio, page)
        assert variant.label in page
    # each choice whole: radio buttons, the rule sets folded under the one picked
    picking = page[page.index('<div class="rules-start">') : page.index('<details class="adjust"')]
    assert "<select" not in picking
    assert f"Rule set: {RULESETS['friends-family'].name}</summary>" in page
    assert 'list="player-names"' in page


def test_start_a_game_with_new_and_existing_players(client, db):
    game_id = start(client, "tablet", first_dealer="cy", **{"teams-1-name": "The Cousins"})
    game = stored(db, game_id)
    assert [t.name for t in game.teams] == ["Ann & Bo", "The Cousins"]
    assert [p.name for p in game.seats] == ["Ann", "Cy", "Bo", "Di"]
    assert game.dealer(1).name == "Cy" and game.dealer(2).name == "Bo"
    assert game.rules == RULESETS["tablet"]
    # existing players are matched regardless of case, not duplicated
    start(client, "roth", **{"teams-0-players-0": "ann", "teams-2-players-0": "Eve"})
    assert [p.name for p in players.list_players(db)] == ["Ann", "Bo", "Cy", "Di", "Eve"]
    page = text(client.get(f"/games/{game_id}"))
    assert "Cy</strong> deals" in page and "Round 1 of 5" in page


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"teams-1-players-0": "", "teams-1-players-1": ""}, "teams-0-players-0", "at least two teams"),
        ({"teams-1-players-1": "ANN"}, "teams-1-players-1", "Ann is already on team 1"),
        ({"teams-2-name": "Ghosts"}, "teams-2-players-0", "Add at least one player"),
        ({"first_dealer": "Zed"}, "first_dealer", "must be one of this game's players"),
        ({"teams-0-players-0": "x" * 41}, "teams-0-players-0", "40 characters"),
        ({"rules-going_out": "lots"}, "rules-going_out", "whole number"),
    ],
)
def test_new_game_refusals_keep_what_was_typed(client, db, data, field, message):
    response = client.post(
        "/games/new", data={**new_game_form(client), **TEAMS, "first_dealer": "Di", **data}
    )
    assert response.status_code == 422
    page = text(response)
    assert message in page
    # the message sits with its own field, before the next field starts
    own = page[page.index(f'id="{field}"') :]
    own = own[: own.find('<div class="field', 1)]
    assert f'<p class="error" id="{field}-error">' in own and message in own, own
    typed = {**TEAMS, "first_dealer": "Di", **data}
    for name, value in typed.items():
        if value and name != "rules_key":
            assert f'value="{value}"' in page or f'value="{html.escape(value)}"' in response.get_data(
                as_text=True
            )
    assert db["games"].count == 0 and db["players"].count == 0


# --- the game screen ---------------------------------------------------------------------


def test_game_screen_before_the_first_round(client):
    game_id = start(client, "roth")
    page = text(client.get(f"/games/{game_id}"))
    assert "Ann & Bo vs Cy & Di" in page
    assert page.count('<p class="big-total"><span class="visually-hidden">Total: </span>0</p>') == 2
    assert page.count("Meld minimum: <strong>50</strong>") == 2
    assert "Going out takes <strong>5 clean + 4 dirty books</strong>" in page
    assert "First to 10,000 ends the game" in page
    assert f'href="/games/{game_id}/rounds/new"' in page


def test_unknown_games_and_rounds_are_404(client):
    game_id = start(client)
    for url in (
        "/games/99",
        "/games/99.json",
        "/games/99/rounds/new",
        f"/games/{game_id}/rounds/3/edit",
        f"/games/{game_id}/rounds/3/delete",
        "/games/99/end",
    ):
        assert client.get(url).status_code == 404, url


# --- entering rounds ----------------------------------------------------------------------


def test_a_round_is_checked_then_saved(client, db):
    game_id = start(client, "roth")
    url = f"/games/{game_id}/rounds/new"
    form = client.get(url)
    page = text(form)
    assert "<legend>Ann & Bo</legend>" in page and "<legend>Cy & Di</legend>" in page
    for label in ("Clean (red) books", "Dirty (black) books"):  # a chip per count, 0 to 9
        assert page.count(f"<legend>{label}</legend>") == 2, label
    for label in ("Points melded", "Points left in hand and foot", "Red 3s caught"):
        assert page.count(f">{label}</label>") == 2, label
    for label in ("Players who cut exactly 22", "Penalties"):
        assert page.count(f">{label}</label>") == 2, label
    assert "Red 3s laid down" not in page  # Roth does not score them
    assert "Black 3s caught" not in page  # nor black 3s (worth 0)
    assert page.count('inputmode="numeric"') >= 16
    # Roth deals one deck per player: 4 decks hold 2,160 points of cards, so
    # melded and left over both teams stay under that (else a warning)
    a = {"book_clean": 5, "book_dirty": 4, "melded_points": 1300, "cuts": 1}
    b = {
        "book_clean": 2,
        "book_dirty": 1,
        "melded_points": 605,
        "unplayed_points": 210,
        "red_threes": 1,
        "black_threes": 2,
        "penalties": 1,
    }
    data = {**fields(a, b, went_out="0"), "revision": "0"}
    review = page_after(client, url, {**data, "action": "check"})
    page = text(review)
    assert "Check before saving" in page and "Save round 1" in page
    assert '<th scope="row">Round 1</th><td>+5,200</td>' in page
    assert '<th scope="row">Round 1</th><td>+1,095</td>' in page
    assert '<th scope="row">Red 3s caught\u00a0×\u00a01</th><td>\u2212500</td>' in page
    assert db["rounds"].count == 0  # checking writes nothing
    saved = client.post(url, data={**data, "action": "save", "checked": hidden(review, "checked")})
    assert saved.headers["Location"].endswith(f"/games/{game_id}")  # the top: totals first
    game = stored(db, game_id)
    assert game.standings.totals == [5200, 1095]
    assert game.rounds[0].entries[0] == TeamRound(
        books={"clean": 5, "dirty": 4}, melded_points=1300, cuts=1, went_out=True
    )
    assert game.rounds[0].entries[1].black_threes == 0  # a value the form does not ask is not taken
    assert [r["score"] for r in db.query("SELECT score FROM round_entries ORDER BY team_id")] == [5200, 1095]
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1 saved." in page
    assert "Meld minimum: <strong>120</strong>" in page and "Meld minimum: <strong>50</strong>" in page
    assert "Bo</strong> deals" not in page and "Cy</strong> deals" in page


def test_saving_needs_the_values_that_were_checked(client, db):
    game_id = start(client, "tablet")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": 100}, {"melded_points": 50}), "revision": "0"}
    # save without a check: shows the review, saves nothing
    response = page_after(client, url, {**data, "action": "save"})
    assert response.status_code == 200 and "Check before saving" in text(response)
    assert db["rounds"].count == 0
    # values changed after the check: checked again, nothing saved
    changed = {**data, "teams-0-melded_points": "150"}
    response = page_after(client, url, {**changed, "action": "save", "checked": hidden(response, "checked")})
    assert "Something changed since the last check" in text(response)
    assert db["rounds"].count == 0


def test_warnings_need_save_anyway(client, db):
    game_id = start(client, "roth")
    url = f"/games/{game_id}/rounds/new"
    data = {
        **fields({"book_clean": 2, "melded_points": 300}, {"melded_points": 50}, went_out="0"),
        "revision": "0",
    }
    review = page_after(client, url, {**data, "action": "check"})
    page = text(review)
    assert "Worth a second look" in page and "Save anyway" in page
    assert "Ann & Bo went out with 2 clean books, but going out takes 5 clean and 4 dirty books." in page
    client.post(url, data={**data, "action": "save", "checked": hidden(review, "checked")})
    assert stored(db, game_id).standings.totals == [1000 + 300 + 100, 50]


@pytest.mark.parametrize(
    "team, field, message",
    [
        ({"melded_points": "37"}, "melded_points", "37 points melded can’t be right"),
        ({"unplayed_points": "12"}, "unplayed_points", "12 points left in hand and foot can’t be right"),
        ({"melded_points": "-5"}, "melded_points", "Can’t be negative."),
        ({"book_clean": "two"}, "book_clean", "Enter a whole number"),
        ({"red_threes": "100"}, "red_threes", "At most 99"),
    ],
)
def test_errors_block_the_save_next_to_their_field(client, db, team, field, message):
    game_id = start(client, "roth")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": 100, **team}, {"melded_points": 60}), "revision": "0"}
    for action in ("check", "save"):
        response = page_after(client, url, {**data, "action": action})
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert re.search(
            rf'id="teams-0-{field}"[^>]*value="{re.escape(html.escape(str(team[field])))}"', page
        )
        assert re.search(
            rf'<p class="error" id="teams-0-{field}-error">[^<]*{re.escape(html.escape(message))}', page
        ), page
        assert "Save round" not in page and "Save anyway" not in page
    assert db["rounds"].count == 0


def test_steppers_and_the_card_helper_work_without_javascript(client, db):
    game_id = start(client, "roth")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"book_clean": 2, "cuts": 2, "melded_points": 40}, {}), "revision": "0"}
    stepped = page_after(client, url, {**data, "step": "teams-0-cuts:1"})
    page = stepped.get_data(as_text=True)
    assert (
        'id="teams-0-cuts" inputmode="numeric" maxlength="20" name="teams-0-cuts" placeholder="0" type="text"'
        ' value="3"' in page
    )
    assert '<details class="more" open>' in page  # the fold with the count stays open
    assert 'id="teams-0-book_clean-2" value="2" checked>' in page  # the rest is kept
    stepped = page_after(client, url, {**data, "teams-1-penalties": "0", "step": "teams-1-penalties:-1"})
    assert 'name="teams-1-penalties" placeholder="0" type="text" value="0"' in stepped.get_data(as_text=True)
    # Roth tiers: Jokers 50, 2s and Aces 20, 10–K 10, 4–9 5
    counts = {
        "teams-1-left_count_0": "1",
        "teams-1-left_count_1": "2",
        "teams-1-left_count_2": "3",
        "teams-1-left_count_3": "4",
    }
    added = page_after(client, url, {**data, **counts, "action": "add-left-1"})
    page = added.get_data(as_text=True)
    assert 'name="teams-1-unplayed_points" placeholder="0" type="text" value="140"' in page  # 50+40+30+20
    assert 'name="teams-0-melded_points" placeholder="0" type="text" value="40"' in page  # the rest is kept
    assert "Jokers ×50" in html.unescape(page) and "10–K ×10" in html.unescape(page)
    bad = page_after(client, url, {**data, "teams-0-melded_count_0": "lots", "action": "add-melded-0"})
    assert "Enter a whole number" in bad.get_data(as_text=True)
    assert db["rounds"].count == 0


def test_only_fields_the_rules_use_are_shown(client, db):
    variant = RULESETS["tablet"].to_dict() | {
        "name": "Sevens house",
        "red_three_melded": 100,
        "books": {"clean": 500, "dirty": 300, "sevens": 1500},
    }
    key = rulesets.save_house_rules(db, RuleSet.from_dict(variant))
    game_id = start(client, key)
    page = text(client.get(f"/games/{game_id}/rounds/new"))
    assert "Books of 7s" in page and "Red 3s laid down" in page
    assert "cut exactly 22" not in page and "Penalties" not in page
    enter(
        client,
        game_id,
        {"book_clean": 1, "book_dirty": 1, "book_sevens": 1, "melded_points": 600, "red_threes_melded": 2},
        {"melded_points": 40},
    )
    assert stored(db, game_id).standings.totals == [500 + 300 + 1500 + 600 + 200, 40]


def test_a_round_saved_meanwhile_on_another_phone_is_not_overwritten(app, client, db):
    game_id = start(client, "tablet")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": 100}, {"melded_points": 50}), "revision": "0"}
    review = page_after(client, url, {**data, "action": "check"})
    enter(app.test_client(), game_id, {"melded_points": 200}, {"melded_points": 30})  # the other phone
    late = page_after(client, url, {**data, "action": "save", "checked": hidden(review, "checked")})
    # refused, saying what happened meanwhile, with what was typed kept for round 2
    assert late.status_code == 422
    page = text(late)
    assert "changed on another phone" in page and "Meanwhile: Round 1 entered." in page
    assert "<h1>Round 2</h1>" in page
    assert 'name="teams-0-melded_points" placeholder="0" type="text" value="100"' in page
    game = stored(db, game_id)
    assert len(game.rounds) == 1 and game.standings.totals == [200, 30]


# --- fixing rounds -----------------------------------------------------------------------


def test_edit_a_round_keeps_a_revision(client, db):
    game_id = start(client, "tablet")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    enter(client, game_id, {"melded_points": 200}, {"melded_points": 75})
    form = client.get(f"/games/{game_id}/rounds/1/edit")
    page = form.get_data(as_text=True)
    assert "Fix round 1" in page
    assert 'name="teams-0-melded_points" placeholder="0" type="text" value="100"' in page
    enter(
        client,
        game_id,
        {"melded_points": 150},
        {"melded_points": 50, "red_threes": 1},
        url=f"/games/{game_id}/rounds/1/edit",
    )
    game = stored(db, game_id)
    assert game.standings.totals == [150 + 200, 50 - 100 + 75]
    assert len(game.rounds) == 2 and game.revision == 3
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 1 updated." in page
    assert "Round 1 edited: Ann & Bo: melded 100 → 150; Cy & Di: red 3s 0 → 1." in page


def test_an_edit_from_a_stale_page_is_refused(app, client, db):
    game_id = start(client, "tablet")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    url = f"/games/{game_id}/rounds/1/edit"
    form = client.get(url)
    stale = {
        **fields({"melded_points": 300}, {"melded_points": 50}),
        "revision": hidden(form, "revision"),
        "round_id": hidden(form, "round_id"),
    }
    review = page_after(client, url, {**stale, "action": "check"})
    other = app.test_client()  # the other phone
    enter(other, game_id, {"melded_points": 120}, {"melded_points": 50}, url=url)
    refused = page_after(client, url, {**stale, "action": "save", "checked": hidden(review, "checked")})
    assert refused.status_code == 422 and "changed on another phone" in text(refused)
    assert "Meanwhile: Round 1 edited: Ann & Bo: melded 100 → 120." in text(refused)
    assert 'name="teams-0-melded_points" placeholder="0" type="text" value="300"' in text(refused)
    assert stored(db, game_id).standings.totals == [120, 50]


def test_delete_a_round_moves_later_rounds_up(client, db):
    game_id = start(client, "friends-family")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    enter(client, game_id, {"melded_points": 200}, {"melded_points": 60})
    enter(client, game_id, {"melded_points": 300}, {"melded_points": 70})
    confirm = client.get(f"/games/{game_id}/rounds/2/delete")
    assert "Delete round 2?" in text(confirm) and "Later rounds move up one" in text(confirm)
    response = client.post(f"/games/{game_id}/rounds/2/delete", data=posted(confirm))
    assert response.status_code == 303
    game = stored(db, game_id)
    assert [r.number for r in game.rounds] == [1, 2]
    assert game.standings.totals == [400, 120]
    assert game.standings.meld_minimums == [[50, 50], [90, 90]]
    assert "Round 2 deleted; rounds 3–3 moved up one." in text(client.get(f"/games/{game_id}"))
    # the same page posted again (the game moved on) deletes nothing
    client.post(f"/games/{game_id}/rounds/2/delete", data=posted(confirm))
    assert len(stored(db, game_id).rounds) == 2


# --- finishing ----------------------------------------------------------------------------


def test_a_game_ends_by_its_rules_and_can_be_reopened(client, db):
    game_id = start(client, "friends-family")
    for melded in (100, 200, 300):
        enter(client, game_id, {"melded_points": melded}, {"melded_points": 50})
    enter(client, game_id, {"melded_points": 10}, {"melded_points": 400})
    game = stored(db, game_id)
    assert game.finished and game.finished_at and game.standings.winners == [0]
    page = text(client.get(f"/games/{game_id}"))
    assert "Ann & Bo win with 610!" in page
    assert "Enter round" not in page and "Fix round" not in page
    assert client.get(f"/games/{game_id}/rounds/new").status_code == 303
    refused = client.get(f"/games/{game_id}/rounds/1/edit", follow_redirects=True)
    # the message names the button as the page labels it
    assert "This game is finished: tap “Reopen to fix a round” first." in text(refused)
    assert ">Reopen to fix a round</button>" in text(refused)
    # reopen, fix round 4, and it closes again with the new winner
    client.post(f"/games/{game_id}/reopen", data={"revision": str(game.revision)})
    assert "Fix round 4" in text(client.get(f"/games/{game_id}"))
    enter(
        client, game_id, {"melded_points": 10}, {"melded_points": 1000}, url=f"/games/{game_id}/rounds/4/edit"
    )
    game = stored(db, game_id)
    assert game.finished_at and game.standings.winners == [1]
    assert "Cy & Di win with 1,150!" in text(client.get(f"/games/{game_id}"))


def test_a_game_reaching_the_target_ends_after_that_round(client, db):
    game_id = start(client, "roth")
    # 4,000 points is more than Roth's four decks hold: the engine asks, the table saves anyway
    enter(
        client,
        game_id,
        {"book_clean": 9, "book_dirty": 9, "melded_points": 4000},
        {"melded_points": 50},
        expect_warnings=True,
    )
    game = stored(db, game_id)
    assert game.standings.totals == [4500 + 2700 + 4000, 50] and game.finished


def test_the_table_ends_a_game_by_hand_and_a_tie_is_announced(client, db):
    game_id = start(client, "partnership")
    # melding without books: the partnership's first meld must hold a clean and a dirty book
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 100}, expect_warnings=True)
    page = text(client.get(f"/games/{game_id}/end"))
    assert "These rules leave the end to the table" in page
    client.post(f"/games/{game_id}/end", data={"revision": str(stored(db, game_id).revision)})
    page = text(client.get(f"/games/{game_id}"))
    assert "A tie at 100 — Ann & Bo, Cy & Di" in page
    # reopened, it can go on
    client.post(f"/games/{game_id}/reopen", data={"revision": str(stored(db, game_id).revision)})
    assert "Enter round 2" in text(client.get(f"/games/{game_id}"))


def test_ending_from_a_stale_page_is_refused(client, db):
    game_id = start(client, "partnership")
    seen = stored(db, game_id).revision
    # meanwhile, another phone (melding without the first meld's books: saved anyway)
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 5}, expect_warnings=True)
    client.post(f"/games/{game_id}/end", data={"revision": str(seen)})
    assert not stored(db, game_id).finished
    assert "changed this game on another phone" in text(client.get(f"/games/{game_id}"))


# --- home, JSON, players -----------------------------------------------------------------------


def test_home_lists_games_in_progress_then_finished(client, db):
    playing = start(client, "tablet")
    done = start(client, "partnership")
    enter(client, done, {"melded_points": 300}, {"melded_points": 100}, expect_warnings=True)
    client.post(f"/games/{done}/end", data={"revision": str(stored(db, done).revision)})
    page = text(client.get("/"))
    assert page.index("In progress") < page.index(f'href="/games/{playing}"') < page.index("Recent games")
    assert page.index("Recent games") < page.index(f'href="/games/{done}"')
    assert "Ann & Bo won" in page and "Ann & Bo 300 · Cy & Di 100" in page and "Resume" in page


def recent_games(client):
    """The home page's Recent games: (game id, its facts line) in the order listed."""
    page = text(client.get("/"))
    section = page[page.index('aria-labelledby="finished-title"') :]
    section = section[: section.index("</section>")]
    found = re.findall(
        r'href="/games/(\d+)">\s*<strong>[^<]*</strong>\s*<span class="facts">(.*?)</span>', section
    )
    return [(int(game), html.unescape(re.sub(r"<[^>]+>", "", facts))) for game, facts in found]


def date_it(client, game_id, day):
    """Correct when the game was played, as the family does on its page (8 pm that day)."""
    page = client.get(f"/games/{game_id}/played")
    response = client.post(f"/games/{game_id}/played", data={**posted(page), "played_day": day})
    assert response.status_code == 303, text(response)


def test_home_lists_recent_games_by_the_day_played_and_shows_it(client, db, make_game):
    """Issue 54: games typed in from paper sheets years later are listed by the day they
    were played (the day shown), not the day they were typed; a corrected date moves one."""
    sheet = [[TeamRound(melded_points=200, went_out=True), TeamRound(melded_points=50)]] * 4
    first, second, third = (make_game("friends-family", sheet).id for _ in range(3))
    for game_id, day in ((first, "2026-01-07"), (second, "2019-12-24"), (third, "2025-06-01")):
        date_it(client, game_id, day)
    title = "Friends & Family online edition"
    assert recent_games(client) == [
        (first, f"2026-01-07 · {title}"),
        (third, f"2025-06-01 · {title}"),
        (second, f"2019-12-24 · {title}"),
    ]
    date_it(client, first, "2018-03-03")
    assert recent_games(client) == [
        (third, f"2025-06-01 · {title}"),
        (second, f"2019-12-24 · {title}"),
        (first, f"2018-03-03 · {title}"),
    ]


def test_game_json(client, db):
    game_id = start(client, "roth")
    enter(
        client,
        game_id,
        {"book_clean": 5, "book_dirty": 4, "melded_points": 1800, "cuts": 1},
        {"book_clean": 1, "melded_points": 100, "red_threes": 1},
        went_out="0",
    )
    data = client.get(f"/games/{game_id}.json").get_json()
    assert data["rules"] == RULESETS["roth"].to_dict()
    assert data["teams"] == [
        {"name": "Ann & Bo", "players": ["Ann", "Bo"]},
        {"name": "Cy & Di", "players": ["Cy", "Di"]},
    ]
    assert data["rounds"][0]["entries"][0]["books"] == {"clean": 5, "dirty": 4}
    assert data["rounds"][0]["scores"] == [5700, 100]
    engine = standings(RULESETS["roth"], [[TeamRound(**e) for e in data["rounds"][0]["entries"]]])
    assert data["totals"] == engine.totals == [5700, 100]
    assert data["next_meld_minimums"] == [120, 50]
    assert (data["finished"], data["winners"]) == (False, [])


def test_players_can_be_renamed_and_keep_their_games(client, db):
    game_id = start(client, "roth")
    ann = players.find_player(db, "ann")
    page = text(client.get("/players"))
    assert "Ann" in page and "Not rated yet: 1 game, none finished" in page
    taken = client.post(f"/players/{ann.id}/rename", data={"name": "cy", "revision": "0"})
    assert taken.status_code == 422 and "There is already a player called Cy." in text(taken)
    empty = client.post(f"/players/{ann.id}/rename", data={"name": "", "revision": "0"})
    assert empty.status_code == 422 and "Type a name." in text(empty)
    assert (
        client.post(f"/players/{ann.id}/rename", data={"name": "Annie", "revision": "0"}).status_code == 303
    )
    assert [p.name for p in stored(db, game_id).teams[0].players] == ["Annie", "Bo"]
    assert client.get("/players/999/rename").status_code == 404


def test_recompute_scores_command(client, db, runner):
    game_id = start(client, "roth")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    db.execute("UPDATE round_entries SET score = 0")
    db.conn.commit()
    result = runner.invoke(args=["recompute-scores"])
    assert result.exit_code == 0 and "2 round scores" in result.output
    assert [r["score"] for r in db.query("SELECT score FROM round_entries ORDER BY team_id")] == [100, 50]


# --- CSRF ------------------------------------------------------------------------------------


def test_posts_without_a_csrf_token_are_refused(tmp_path, instance_path):
    from scorekeeper.services.schema import migrate

    migrate(tmp_path / "csrf.db")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db")})
    assert app.config.get("WTF_CSRF_ENABLED", True)
    client = app.test_client()
    response = client.post("/games/new", data={**new_game_form(client), **TEAMS, "csrf_token": ""})
    assert response.status_code == 400 and "nothing was saved" in text(response)
    data = {**new_game_form(client), **TEAMS}
    assert data["csrf_token"]
    assert client.post("/games/new", data=data).status_code == 303
    assert app.config["WTF_CSRF_TIME_LIMIT"] >= 6 * 3600  # a whole evening of play


def test_a_game_can_adjust_its_rules_and_keeps_its_own_copy(client, db):
    key = rulesets.save_house_rules(db, RuleSet.from_dict({**RULESETS["tablet"].to_dict(), "name": "Ours"}))
    form = new_game_form(client, key)
    assert form["rules_key"] == key and form["rules-going_out"] == "200"
    response = client.post(
        "/games/new", data={**form, **TEAMS, "rules-going_out": "300", "rules-name": "Ours, going out 300"}
    )
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    # the saved house rules change later: the game does not
    rulesets.update_house_rules(
        db, key, 0, RuleSet.from_dict({**RULESETS["tablet"].to_dict(), "name": "Ours", "going_out": 50})
    )
    game = stored(db, game_id)
    assert game.rules.going_out == 300 and game.rules.name == "Ours, going out 300"
    assert game.rules_key == key
    enter(
        client, game_id, {"melded_points": 100}, {"melded_points": 50}, went_out="0", expect_warnings=True
    )  # tablet: 2 clean + 2 dirty to go out
    assert stored(db, game_id).standings.totals == [400, 50]


def selected_rules(response):
    page = response.get_data(as_text=True)
    checked = r'<input checked id="rules_key-\d+" name="rules_key" type="radio" value="([^"]+)"'
    return re.search(checked, page)[1]


def test_unknown_rule_sets_fall_back_to_the_first(client):
    assert selected_rules(client.get("/games/new?rules=nope")) == next(iter(RULESETS))


def test_picking_other_rules_loads_them_before_anything_starts(client, db):
    form = new_game_form(client, "roth")  # its values are Roth's
    response = client.post("/games/new", data={**form, **TEAMS, "rules_key": "forfeit"})
    page = text(response)
    assert response.status_code == 200 and db["games"].count == 0
    assert "The rules of Five hands with forfeits are loaded" in page
    assert selected_rules(response) == "forfeit" and 'name="rules-going_out" type="text" value="1000"' in page
    assert 'value="Ann"' in page and 'value="Di"' in page  # the teams are kept
    # "Use these rules" does the same without starting
    loaded = client.post("/games/new", data={**form, **TEAMS, "rules_key": "tablet", "action": "load"})
    assert selected_rules(loaded) == "tablet" and db["games"].count == 0


def test_the_game_screen_draws_the_score_by_round(client, db):
    game_id = start(client, "tablet")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    assert "<svg viewBox" not in text(client.get(f"/games/{game_id}"))  # one round: nothing to draw
    enter(client, game_id, {"melded_points": 200}, {"melded_points": 400})
    page = text(client.get(f"/games/{game_id}"))
    assert 'role="img" aria-labelledby="progress-title" aria-describedby="progress-desc"' in page
    assert '<title id="progress-title">Score by round</title>' in page
    assert "Running totals after each of 2 rounds. Ann & Bo: 300; Cy & Di: 450." in page
    assert page.count("<polyline") == 2
