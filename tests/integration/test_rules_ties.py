"""A tied Buraco game at its target takes another round through the app, and ends when the
tie is broken; a FIBUR tournament turn's tie is a draw (issue 56)."""

from scorekeeper.scoring import TeamRound

from ..helpers import text


def melded(*points):
    return [TeamRound(melded_points=p) for p in points]


def test_a_tied_buraco_game_at_3000_takes_another_round(client, make_game):
    game = make_game("buraco", [melded(2500, 2500), melded(2200, 2200)])
    page = text(client.get(f"/games/{game.id}"))
    assert "Enter round 3" in page and "A tie at" not in page
    game = make_game("buraco", [melded(2500, 2500), melded(2200, 2200), melded(150, 90)])
    page = text(client.get(f"/games/{game.id}"))
    assert "Ann & Bo win with 4,850!" in page and "Enter round 4" not in page


def test_a_tournament_turns_tie_is_a_draw(client, make_game):
    game = make_game("burraco-torneo", [melded(400, 300), melded(300, 400), melded(250, 250)])
    page = text(client.get(f"/games/{game.id}"))
    assert "A tie at 950 — Ann & Bo, Cy & Di" in page and "Enter round 4" not in page


def test_the_rules_page_and_editor_say_how_a_tie_is_played(client):
    assert "A tie for the lead then is played off" in text(client.get("/rules/buraco"))
    assert "A tie for the lead then is played off" not in text(client.get("/rules/burraco-torneo"))
    editor = client.get("/rules/new?from=buraco").get_data(as_text=True)
    assert '<option selected value="play_on">' in editor or 'value="play_on" selected' in editor


def test_the_engine_says_when_a_tie_is_being_played_off():
    """``Standings.playing_off``: the target reached with the lead tied, under rules that play
    on; not before the target, not once the tie is broken, not where a tie is a draw."""
    from scorekeeper.scoring import RULESETS, standings

    tied = [melded(2500, 2500), melded(2200, 2200)]
    assert standings(RULESETS["buraco"], tied).playing_off
    assert not standings(RULESETS["buraco"], tied[:1]).playing_off  # 2,500 each: the target not reached
    assert not standings(RULESETS["buraco"], [*tied, melded(150, 90)]).playing_off
    draw = [melded(400, 300), melded(300, 400), melded(250, 250)]
    assert not standings(RULESETS["burraco-torneo"], draw).playing_off
