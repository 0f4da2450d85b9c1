"""Entering a round over real requests (issue 12): post/redirect/get, what the browser
may keep, a round page opened again after its save, one-tap undo, book counts."""

import re

import pytest

from scorekeeper.scoring import TeamRound
from scorekeeper.services import Conflict, game_model, games

from ..helpers import text
from .test_games import enter, fields, hidden, page_after, start, stored


@pytest.fixture
def app(app):
    app.config["WTF_CSRF_ENABLED"] = False  # the app's CSRF is tested in test_games and the fuzz
    return app


def test_only_save_stays_a_post(client, db):
    game_id = start(client, "friends-family")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": 100}, {"melded_points": 50}), "revision": "0", "checked": "x"}
    for pressed in ({"action": "check"}, {"action": "add-left-1"}, {"step": "teams-0-red_threes:1"}):
        response = client.post(url, data={**data, **pressed, "csrf_token": "token"})
        assert response.status_code == 303, pressed
        location = response.headers["Location"]
        assert location.startswith(url + "?"), location
        # what was typed and the button pressed go along; the token and the old digest do not
        assert "teams-0-melded_points=100" in location and "csrf_token" not in location
        assert "checked=" not in location
        assert all(f"{k}={v}".replace(":", "%3A") in location for k, v in pressed.items())
    assert db["rounds"].count == 0


def test_round_pages_are_never_kept_and_the_game_page_is_asked_again(client):
    game_id = start(client, "friends-family")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    for url in (f"/games/{game_id}/rounds/new", f"/games/{game_id}/rounds/1/edit"):
        assert client.get(url).headers["Cache-Control"] == "no-store", url
        assert client.post(url, data={"action": "check"}).headers["Cache-Control"] == "no-store", url
    assert client.get(f"/games/{game_id}").headers["Cache-Control"] == "private, no-cache"


def review_url(client, url, data):
    """The address of the review a check redirects to."""
    response = client.post(url, data={**data, "action": "check"})
    assert response.status_code == 303
    return response.headers["Location"]


def _reviewed_save(client, game_id, *teams):
    """The save a phone posts after Check: the form's values with the review's digest."""
    url = f"/games/{game_id}/rounds/new"
    form = client.get(url)
    data = {**fields(*teams), "revision": hidden(form, "revision"), "round_id": ""}
    checked = hidden(client.get(review_url(client, url, data)), "checked")
    return url, {**data, "action": "save", "checked": checked}


@pytest.mark.parametrize("before", [0, 4], ids=["a first round", "the round that ends the game"])
def test_a_save_whose_answer_was_lost_is_recognised_when_sent_again(app, client, db, make_game, before):
    """The Wi-Fi dropped after the save reached the app: the phone has neither the answer
    nor the session's note that came with it, and sends the same save again."""
    game = make_game("tablet", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]] * before)
    url, save = _reviewed_save(client, game.id, {"melded_points": 120}, {"melded_points": 70})
    with app.test_client() as first:  # the tap that reached the app; its answer is lost
        assert first.post(url, data=save).status_code == 303
    assert len(stored(db, game.id).rounds) == before + 1
    again = client.post(url, data=save)
    assert again.status_code == 303 and again.headers["Location"].endswith(f"/games/{game.id}")
    page = text(client.get(f"/games/{game.id}"))
    assert f"Round {before + 1} saved." in page and "changed on another phone" not in page
    assert len(stored(db, game.id).rounds) == before + 1  # once
    assert db["revisions"].count_where("game_id = ? AND action = 'added'", [game.id]) == before + 1
    if before == 0:
        assert f"Undo round {before + 1}" in page  # noted as this phone's save, as the lost answer would have
    # a third time, from the game page's Back: still the game
    assert client.post(url, data=save).headers["Location"].endswith(f"/games/{game.id}")


def test_a_save_over_a_changed_game_that_is_not_the_same_round_is_still_refused(app, client, db, make_game):
    game = make_game("tablet")
    url, save = _reviewed_save(client, game.id, {"melded_points": 120}, {"melded_points": 70})
    other = app.test_client()
    other_url, other_save = _reviewed_save(other, game.id, {"melded_points": 125}, {"melded_points": 70})
    assert other.post(other_url, data=other_save).status_code == 303
    refused = client.post(url, data=save)
    assert refused.status_code == 303 and "action=check" in refused.headers["Location"]
    assert "changed on another phone" in text(client.get(refused.headers["Location"]))
    assert [r.entries[0].melded_points for r in stored(db, game.id).rounds] == [125]
    # the same values with a digest that was never reviewed: refused too
    forged = {**save, "revision": "1"}
    assert client.post(url, data=forged).headers["Location"] != f"/games/{game.id}"
    assert len(stored(db, game.id).rounds) == 1


def test_only_the_check_steps_own_digest_saves_without_a_second_check(app, client, db, make_game):
    """ "Save" skips the engine's second check when the posted digest is the one the
    check step made for these very entries (an HMAC with the app's secret key); a
    digest made anywhere else, or for another game, proves nothing."""
    import hashlib
    import hmac
    import json

    game = make_game("tablet")
    url = f"/games/{game.id}/rounds/new"
    bad = {**fields({"melded_points": -5}, {"melded_points": 50}), "revision": "0", "round_id": ""}
    entries = [TeamRound(melded_points=-5).to_dict(), TeamRound(melded_points=50).to_dict()]
    text_signed = json.dumps([game.uid, entries, 1, 0], sort_keys=True).encode()
    for forged in (
        hmac.new(b"a phone's own key", text_signed, hashlib.sha256).hexdigest()[:32],
        hashlib.sha256(json.dumps([entries, 1, 0], sort_keys=True).encode()).hexdigest()[:32],
    ):
        refused = client.post(url, data={**bad, "action": "save", "checked": forged})
        assert refused.status_code == 303 and "action=check" in refused.headers["Location"]
        assert "Can’t be negative." in text(client.get(refused.headers["Location"]))
        assert db["rounds"].count == 0
    # the check step's digest: a chip and a typed count go the way the form reads them
    url, save = _reviewed_save(client, game.id, {"melded_points": 120}, {"melded_points": 70})
    save = {**save, "teams-0-book_clean": ["2", "5"]}  # the chip 2, and 5 typed in the box
    typed = {k: v for k, v in save.items() if k not in ("action", "checked")}
    save["checked"] = hidden(client.get(review_url(client, url, typed)), "checked")
    # the same values and digest sent to another game at the same revision: not proof there
    other = make_game("tablet")
    elsewhere = client.post(f"/games/{other.id}/rounds/new", data=save)
    assert "action=check" in elsewhere.headers["Location"] and db["rounds"].count == 0
    saved = client.post(url, data=save)
    assert saved.headers["Location"].endswith(f"/games/{game.id}")
    (played,) = stored(db, game.id).rounds
    assert played.entries[0].books["clean"] == 5 and played.entries[0].melded_points == 120


def test_a_round_page_opened_again_after_its_save_shows_the_game(app, client, db):
    game_id = start(client, "tablet")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": 100}, {"melded_points": 50}), "revision": "0"}
    review = review_url(client, url, data)
    checked = hidden(client.get(review), "checked")
    saved = client.post(url, data={**data, "action": "save", "checked": checked})
    assert saved.headers["Location"].endswith(f"/games/{game_id}")
    assert "Round 1 saved." in text(client.get(f"/games/{game_id}"))
    # Back to the review, and a second tap on Save: the game, nothing saved twice, nothing refused
    for again in (client.get(review), client.post(url, data={**data, "action": "save", "checked": checked})):
        assert again.status_code == 303 and again.headers["Location"].endswith(f"/games/{game_id}")
    page = text(client.get(f"/games/{game_id}"))
    assert "changed on another phone" not in page and "Round 2 saved" not in page
    assert len(stored(db, game_id).rounds) == 1
    # another phone with the same page open is told what changed, and keeps what it typed
    other = app.test_client()
    late = other.get(review)
    assert late.status_code == 422 and "Meanwhile: Round 1 entered." in text(late)
    assert 'name="teams-0-melded_points" placeholder="0" type="text" value="100"' in text(late)

    # a fixed round: the same
    edit = f"/games/{game_id}/rounds/1/edit"
    form = client.get(edit)
    data = {
        **fields({"melded_points": 150}, {"melded_points": 50}),
        "revision": hidden(form, "revision"),
        "round_id": hidden(form, "round_id"),
    }
    review = review_url(client, edit, data)
    saved = client.post(
        edit, data={**data, "action": "save", "checked": hidden(client.get(review), "checked")}
    )
    assert "Round 1 updated." in text(client.get(saved.headers["Location"]))
    assert client.get(review).headers["Location"].endswith(f"/games/{game_id}")
    assert other.get(review).status_code == 422


def test_undo_the_round_this_phone_just_entered(app, client, db):
    game_id = start(client, "friends-family")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    enter(client, game_id, {"melded_points": 200}, {"melded_points": 60})
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Undo round 2</button>" in page and "Undo round 1" not in page
    game = stored(db, game_id)
    assert f'name="round_id" value="{game.rounds[1].id}"' in page
    assert "Undo round" not in text(app.test_client().get(f"/games/{game_id}"))  # another phone
    # refused from a stale page, like any other change
    stale = client.post(f"/games/{game_id}/undo", data={"revision": "1", "round_id": game.rounds[1].id})
    assert stale.status_code == 303
    assert "changed this game on another phone" in text(client.get(f"/games/{game_id}"))
    assert len(stored(db, game_id).rounds) == 2
    # one tap
    undone = client.post(
        f"/games/{game_id}/undo", data={"revision": game.revision, "round_id": game.rounds[1].id}
    )
    assert undone.status_code == 303
    page = text(client.get(f"/games/{game_id}"))
    assert "Round 2 undone." in page and "Undo round" not in page
    after = game_model.load_game(db, game_id, changes=True)
    assert [r.number for r in after.rounds] == [1] and after.standings.totals == [100, 50]
    assert (after.changes[0].action, after.changes[0].summary) == ("undone", "Round 2 undone.")
    # a round that is gone, or a button from an expired page: nothing changes
    client.post(f"/games/{game_id}/undo", data={"revision": after.revision, "round_id": game.rounds[1].id})
    assert "no longer in this game" in text(client.get(f"/games/{game_id}"))
    assert stored(db, game_id).revision == after.revision


def test_only_the_last_change_can_be_undone(client, db):
    game_id = start(client, "friends-family")
    enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    game = stored(db, game_id)
    played = game.rounds[0]
    game = games.share_game(db, game_id, game.revision)  # another change since
    with pytest.raises(Conflict, match="no longer this game’s last change"):
        games.delete_round(db, game_id, game.revision, played.id, action="undone")
    assert "Undo round" not in text(client.get(f"/games/{game_id}"))
    # deleting it the ordinary way is still possible
    games.delete_round(db, game_id, game.revision, played.id)
    assert stored(db, game_id).rounds == ()


def test_an_undo_reopens_the_game_its_round_ended(client, db):
    game_id = start(client, "tablet")  # five rounds
    for _ in range(5):
        enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    game = stored(db, game_id)
    assert game.finished and not game.is_open
    client.post(f"/games/{game_id}/undo", data={"revision": game.revision, "round_id": game.rounds[-1].id})
    game = stored(db, game_id)
    assert len(game.rounds) == 4 and not game.finished and game.is_open
    # but a finished game's rounds are not deleted without reopening it
    for _ in range(1):
        enter(client, game_id, {"melded_points": 100}, {"melded_points": 50})
    game = stored(db, game_id)
    with pytest.raises(Conflict, match="reopen it"):
        games.delete_round(db, game_id, game.revision, game.rounds[0].id)


@pytest.mark.parametrize(
    "sent, books",
    [
        (["3", ""], 3),  # a chip, the box empty
        (["3", "12"], 12),  # a number typed in the box wins over a chip
        (["", "12"], 12),
        ([""], 0),  # nothing: 0 books
        (["12"], 12),  # one value, as a script or an older page sends it
    ],
)
def test_a_book_count_is_a_chip_or_typed(client, db, sent, books):
    game_id = start(client, "friends-family")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": 3000}, {"melded_points": 50}), "revision": "0", "action": "check"}
    review = page_after(client, url, {**data, "teams-0-book_clean": sent})
    assert review.status_code == 200
    page = text(review)
    if books:
        assert f"Clean (red) books\u00a0×\u00a0{books}</th>" in page
    else:
        assert "Clean (red) books\u00a0×" not in page
    chip = re.search(r'id="teams-0-book_clean-(\d)" value="\d" checked', page)
    box = re.search(r'id="teams-0-book_clean" value="([^"]*)"', page)[1]
    assert (int(chip[1]) if chip else None, box) == ((books, "") if books < 10 else (None, str(books)))


def test_a_bad_book_count_is_refused_next_to_its_chips(client, db):
    game_id = start(client, "friends-family")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"book_clean": "lots", "melded_points": 100}, {}), "revision": "0", "action": "check"}
    page = page_after(client, url, data)
    assert page.status_code == 422
    html = page.get_data(as_text=True)
    assert re.search(r'id="teams-0-book_clean" value="lots"[^>]*aria-invalid="true"', html)
    assert '<p class="error" id="teams-0-book_clean-error">Enter a whole number' in html
    assert db["rounds"].count == 0


def test_a_form_too_long_to_be_an_address_is_refused(client, db):
    game_id = start(client, "friends-family")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": "9" * 20_000}, {}), "revision": "0", "action": "check"}
    assert client.post(url, data=data).status_code == 413
    assert db["rounds"].count == 0


def test_fixing_keeps_a_value_the_rules_do_not_ask(client, db):
    game_id = start(client, "roth")  # black 3s are worth 0: the form does not ask them
    game = stored(db, game_id)
    entries = [TeamRound(melded_points=300, black_threes=2), TeamRound(melded_points=100)]
    games.add_round(db, game_id, game.revision, 1, entries)  # as an import could bring it
    assert "Black 3s caught" not in text(client.get(f"/games/{game_id}/rounds/new"))
    edit = f"/games/{game_id}/rounds/1/edit"
    form = client.get(edit)
    assert 'name="teams-0-black_threes" placeholder="0" type="text" value="2"' in text(form)
    enter(client, game_id, {"melded_points": 350, "black_threes": 2}, {"melded_points": 100}, url=edit)
    assert stored(db, game_id).rounds[0].entries[0].black_threes == 2


def test_a_saved_count_past_the_chips_is_in_the_box(client, db):
    game_id = start(client, "friends-family")
    enter(client, game_id, {"book_clean": 12, "book_dirty": 3, "melded_points": 2000}, {"melded_points": 50})
    page = client.get(f"/games/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert 'id="teams-0-book_clean" value="12"' in page
    assert not re.search(r'id="teams-0-book_clean-\d" value="\d" checked', page)
    assert 'id="teams-0-book_dirty-3" value="3" checked' in page


def test_the_error_summary_names_the_team_and_the_field_of_each_mistake(client, db):
    game_id = start(client, "tablet")
    url = f"/games/{game_id}/rounds/new"
    data = {**fields({"melded_points": "12a"}, {"unplayed_points": "-5"}), "revision": "0"}
    page = client.get(review_url(client, url, data))
    assert page.status_code == 422
    summary = re.search(r'<div class="error-summary" role="alert">(.*?)</div>', text(page), re.S).group(1)
    names = re.findall(r'<a href="#([^"]+)">([^:<]+):', summary)
    assert names == [
        ("teams-0-melded_points", "Ann & Bo · Points melded"),
        ("teams-1-unplayed_points", "Cy & Di · Points left in hand and foot"),
    ], summary
    assert db["rounds"].count == 0


def test_a_check_proof_of_any_characters_is_only_a_wrong_proof(app, db, make_game):
    """Save compares the check's proof in constant time; a proof of 32 characters outside
    ASCII (a crafted form) is a proof that does not match, not a 500: the phone is sent
    back to check the values first, and nothing is saved."""
    from ..httpkit import FlaskPhone, check_round

    game = make_game("tablet")
    phone = FlaskPhone(app)
    review = check_round(phone, f"/games/{game.id}/rounds/new", {0: {"melded_points": 135}})
    button = review.form.button("save", "action")
    saved = phone.submit(review.form, review.page, {"checked": "٣" * 32}, button=button)
    assert saved.status == 303 and "changed=1" in saved.location, (saved.status, saved.error)
    assert game_model.load_game(db, game.id).rounds == ()
