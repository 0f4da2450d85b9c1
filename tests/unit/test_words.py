"""A rule set's words (scoring.words): Hand and Foot's by default, a file's own when given."""

import dataclasses
import json
import pathlib

import pytest

from scorekeeper.scoring import RULESETS, RuleSet, TeamRound, check_round, score_team_round
from scorekeeper.scoring.words import DEFAULT, Words
from scorekeeper.web import formatting

BEFORE = pathlib.Path(__file__).parent / "house_rules_before"
CANASTA_WORDS = {
    "game": "Canasta",
    "book": "canasta",
    "books": "canastas",
    "kinds": {"clean": "natural", "dirty": "mixed"},
    "piles": ["hand"],
}


@pytest.mark.parametrize("path", sorted(BEFORE.glob("*.json")), ids=lambda p: p.stem)
def test_a_file_from_before_words_reads_in_hand_and_foots_and_writes_back_unchanged(path):
    written = path.read_text()
    rules = RuleSet.from_json(written)
    assert rules.words is None and rules.say == DEFAULT
    assert rules.to_json() == written
    assert rules.book_label("clean") == "Clean (red) books" and rules.say.piles_and == "hand and foot"


def test_canastas_words_round_trip():
    rules = RULESETS["canasta"]
    assert rules.to_dict()["words"] == CANASTA_WORDS
    written = rules.to_json()
    assert RuleSet.from_json(written) == rules and RuleSet.from_json(written).to_json() == written


def test_words_name_the_kinds_and_piles():
    words = Words.of(RULESETS["canasta"].words)
    assert words.book_label("clean") == "Natural canastas" and words.book_label("dirty") == "Mixed canastas"
    assert (words.piles_and, words.piles_or) == ("hand", "hand")
    knee = Words.of({"piles": ("hand", "knee", "foot")})
    assert (knee.piles_and, knee.piles_or) == ("hand, knee and foot", "hand, knee or foot")
    # a kind the words do not name keeps Hand and Foot's label while a book is a book
    assert Words.of({"kinds": {"clean": "natural"}}).book_label("dirty") == "Dirty (black) books"
    assert Words.of({"book": "set", "books": "sets"}).book_label("sevens") == "Sevens sets"


def test_counts_of_books_in_the_games_words():
    words = RULESETS["canasta"].say
    assert formatting.books({"any": 1}, words) == "1 canasta of any kind"
    assert formatting.books({"clean": 1, "dirty": 2}, words) == "1 natural + 2 mixed canastas"
    assert formatting.books({}, words) == "no canastas"
    assert formatting.books({"clean": 5, "dirty": 4}) == "5 clean + 4 dirty books"


def test_the_engine_speaks_canasta():
    canasta = RULESETS["canasta"]
    out = TeamRound(books={"dirty": 1}, melded_points=100, went_out=True)
    labels = [line.label for line in score_team_round(canasta, out, 1).breakdown]
    assert labels[:2] == ["Natural canastas", "Mixed canastas"] and "Left in hand" in labels
    [warning] = check_round(canasta, [TeamRound(melded_points=100, went_out=True), TeamRound()], 1)
    assert warning.message == "Team 1 went out with no canastas, but going out takes 1 canasta of any kind."
    [warning] = check_round(canasta, [TeamRound(books={"clean": 1}), TeamRound()], 1)
    assert warning.message == (
        "Team 1 has canastas but no melded points. Canastas count their cards in the melded points too."
    )


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ({"colour": "red"}, "words.colour: not a word"),
        ({"book": "canasta"}, "words.books: give both book and books"),
        ({"kinds": {"sevens": "sevens"}}, "words.kinds.sevens: not a kind of book these rules score"),
        ({"piles": []}, "words.piles: must be a list"),
        ({"piles": "hand"}, "words.piles: must be a list"),
        ({"piles": ["a", "b", "c", "d", "e"]}, "words.piles: at most 4"),
        ({"game": ""}, "words.game: must not be empty"),
        ({"game": "x" * 41}, "words.game: at most 40"),
        ({"book": "<b>", "books": "b"}, "words.book: letters"),
        ({"book": 1, "books": "b"}, "words.book: must be a word"),
        ("canasta", "words: must be an object"),
    ],
)
def test_bad_words_are_refused_by_name(words, message):
    data = {**json.loads(RULESETS["tablet"].to_json()), "words": words}
    with pytest.raises(ValueError, match=message):
        RuleSet.from_dict(data)


def test_words_for_a_kind_go_with_the_kind():
    rules = dataclasses.replace(
        RULESETS["tablet"],
        books={"clean": 500, "dirty": 300, "sevens": 1500},
        words={"kinds": {"sevens": "7s"}},
    )
    assert rules.book_label("sevens") == "7s books" and rules.to_dict()["words"] == {
        "kinds": {"sevens": "7s"}
    }
    # no words at all is no words in the file
    assert "words" not in dataclasses.replace(rules, words={}).to_dict()
