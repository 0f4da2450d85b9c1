"""load_game remembers a game's rounds and standings per revision, and never serves them stale."""

import pytest

from scorekeeper.scoring import RULESETS, TeamRound
from scorekeeper.services import game_model, games, players
from scorekeeper.storage.db import transaction


def test_the_same_revision_is_read_and_scored_once(db, make_game):
    game = make_game("tablet", [[TeamRound(melded_points=100), TeamRound(melded_points=50)]])
    first, again = (game_model.load_game(db, game.id, remember=True) for _ in range(2))
    assert first == again and first.standings is again.standings  # remembered, not scored again
    assert game_model.load_game(db, game.id).standings is not first.standings  # only when asked
    after = games.add_round(db, game.id, first.revision, 2, [TeamRound(melded_points=20), TeamRound()])
    fresh = game_model.load_game(db, game.id, remember=True)
    assert fresh.standings is after.standings  # the change remembered what it committed
    assert fresh.revision == after.revision and len(fresh.rounds) == 2
    assert fresh.standings.totals == after.standings.totals == [120, 50]


def test_names_are_always_read_again(db, make_game):
    game = make_game("tablet", [[TeamRound(melded_points=100), TeamRound()]])
    game_model.load_game(db, game.id, remember=True)
    players.rename_player(db, players.find_player(db, "Ann").id, 0, "Annie")
    names = [p.name for t in game_model.load_game(db, game.id, remember=True).teams for p in t.players]
    assert names == ["Annie", "Bo", "Cy", "Di"]


def test_what_a_rolled_back_write_read_is_never_remembered(db):
    class Refused(Exception):
        pass

    with pytest.raises(Refused), transaction(db):
        game_id = games.insert_game(db, RULESETS["tablet"], "tablet", [("", ["Ann"]), ("", ["Bo"])])
        assert game_model.load_game(db, game_id, remember=True).rules.name == RULESETS["tablet"].name
        raise Refused
    # the same id again, for another game: read as it is
    again = games.create_game(db, RULESETS["roth"], "roth", [("", ["Cy"]), ("", ["Di"])])
    assert again.id == game_id
    loaded = game_model.load_game(db, game_id, remember=True)
    assert loaded.rules.name == RULESETS["roth"].name and loaded.rounds == ()
