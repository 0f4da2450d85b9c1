"""Rule sets: the values of a house-rules file, checked once when a rule set is made.

Every value is *points added to the team's score per unit*, so penalties are
negative numbers and the engine only ever multiplies and adds.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from ..names import clean_name, name_problem
from .words import Words, check_words

#: Every rank a house-rules file gives a value to, highest first. 3s are not
#: here: they are never melded and are scored per 3 caught (or laid down).
RANKS = ("joker", "2", "A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
WILD_RANKS = ("joker", "2")
NATURAL_RANKS = tuple(r for r in RANKS if r not in WILD_RANKS)
BOOK_SIZE = 7
MAX_WILDS_IN_BOOK = 3

# Bounds that keep a typo in a house-rules file from becoming a silly game.
MAX_CARD_VALUE = 1_000
MAX_RULE_VALUE = 1_000_000
MAX_ROUNDS = 100
MAX_NAME_LENGTH = 80
MAX_DECKS = 30
MAX_CARDS_DEALT = 50  # in one hand or one foot

#: The tables a game can be played at: teams (a player alone is a team of one).
MIN_TEAMS = 2
MAX_TEAMS = 6
MAX_PLAYERS_PER_TEAM = 4
MAX_PLAYERS = MAX_TEAMS * MAX_PLAYERS_PER_TEAM

#: How a round ended for a team, for the values that depend on it (a
#: house-rules value may be an object with one number per case).
WENT_OUT, OTHER_WENT_OUT, NOBODY_OUT = "went_out", "other_went_out", "nobody_out"
OUTCOMES = (WENT_OUT, OTHER_WENT_OUT, NOBODY_OUT)
#: ... and, when given, the value for a team that melded nothing in the round
NOT_MELDED = "not_melded"
#: the pseudo-kind "books of any kind" in books_to_go_out and first_meld_books
ANY_BOOK = "any"

RANK_ALIASES = {r.lower(): r for r in RANKS}
_BOOK_KIND = re.compile(r"[a-z][a-z0-9_]{0,29}")

_REQUIRED_FIELDS = (
    "name",
    "card_values",
    "black_three",
    "red_three",
    "books",
    "going_out",
    "meld_minimum",
    "books_to_go_out",
    "end",
)
# House extras that most rule sets do not use; a file may leave them out.
_OPTIONAL_FIELDS = ("red_three_melded", "cut_22", "penalty")
# Added later: a file may leave them out, and one written without them (at
# these defaults) is written without them, exactly as before they existed.
_LATER_FIELDS = {
    "red_three_book": 0,
    "black_three_book": 0,
    "red_threes_all": None,
    "not_melded_books": 0,
    "black_three_out": 0,
    "going_out_concealed": 0,
    "first_meld_books": None,
    "deal": None,
    "words": None,
}
#: The values that may depend on how the round ended (see ``by_outcome``).
OUTCOME_VALUES = ("red_three", "black_three", "red_three_melded", "red_three_book", "black_three_book")


# --------------------------------------------------------------------------
# Checking and normalising the values of a house-rules file.
# Each helper takes ``where``, the field's path, so that a refused file says
# exactly which value is wrong ("meld_minimum.by_score[2]: ...").


def whole(value: Any, where: str, *, low: int = -MAX_RULE_VALUE, high: int = MAX_RULE_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: must be a whole number, not {value!r}")
    if value < low:
        raise ValueError(f"{where}: must be at least {low}, not {value}")
    if value > high:
        raise ValueError(f"{where}: must be at most {high}, not {value}")
    return value


def _by_outcome(value: Any, where: str) -> int | dict[str, int]:
    """A plain number, or ``{"went_out": a, "other_went_out": b, "nobody_out": c}``
    with an optional ``"not_melded"``; one that is the same in every case is a number."""
    if not isinstance(value, Mapping):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(
                f"{where}: must be a whole number, or an object with went_out, other_went_out "
                f"and nobody_out, not {value!r}"
            )
        return whole(value, where)
    for key in value:
        if key not in (*OUTCOMES, NOT_MELDED):
            raise ValueError(
                f"{where}.{key}: not a case; the cases are went_out, other_went_out, nobody_out "
                "and (optional) not_melded"
            )
    for key in OUTCOMES:
        if key not in value:
            raise ValueError(f"{where}.{key}: missing (a value by outcome gives every case)")
    cases = {key: whole(value[key], f"{where}.{key}") for key in (*OUTCOMES, NOT_MELDED) if key in value}
    return cases[WENT_OUT] if len(set(cases.values())) == 1 else cases


def by_outcome(value: int | Mapping[str, int], outcome: str, melded: bool = True) -> int:
    """A rule value for a team: the case of the round's outcome, or ``not_melded``
    (when the value gives one) for a team that melded nothing."""
    if not isinstance(value, Mapping):
        return value
    if not melded and NOT_MELDED in value:
        return value[NOT_MELDED]
    return value[outcome]


def in_use(value: Any) -> bool:
    """Whether a rule value scores anything: a non-zero number, per round or by outcome."""
    if isinstance(value, Mapping):
        return any(value.values())
    if isinstance(value, tuple):
        return any(value)
    return bool(value)


def _mapping(value: Any, where: str) -> Mapping:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where}: must be an object of names and values, not {value!r}")
    return value


def _non_empty_list(value: Any, where: str) -> list:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ValueError(f"{where}: must be a list, not {value!r}")
    if not value:
        raise ValueError(f"{where}: must not be an empty list")
    if len(value) > MAX_ROUNDS:
        raise ValueError(f"{where}: at most {MAX_ROUNDS} entries")
    return list(value)


def _name(value: Any) -> str:
    name = clean_name(value)
    if not name:
        raise ValueError("name: must be a non-empty text")
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(f"name: at most {MAX_NAME_LENGTH} characters")
    problem = name_problem(name, MAX_NAME_LENGTH)
    if problem:
        raise ValueError(f"name: {problem[0].lower()}{problem[1:]}")
    return name


def _card_values(value: Any) -> dict[str, int]:
    given: dict[str, int] = {}
    for rank, points in _mapping(value, "card_values").items():
        canonical = RANK_ALIASES.get(str(rank).lower())
        if canonical is None:
            raise ValueError(
                f"card_values.{rank}: not a rank; the ranks are {', '.join(RANKS)} "
                "(3s are scored by red_three and black_three)"
            )
        if canonical in given:
            raise ValueError(f"card_values.{rank}: given twice")
        given[canonical] = whole(points, f"card_values.{rank}", low=0, high=MAX_CARD_VALUE)
    for rank in RANKS:
        if rank not in given:
            raise ValueError(f"card_values.{rank}: missing (every rank needs a value)")
    return {rank: given[rank] for rank in RANKS}


def _books(value: Any) -> dict[str, int]:
    books = _mapping(value, "books")
    for kind in ("clean", "dirty"):
        if kind not in books:
            raise ValueError(f"books.{kind}: missing (every rule set scores clean and dirty books)")
    result = {}
    # clean and dirty first, then the house's extra kinds in the file's order
    for kind in ("clean", "dirty", *books):
        if kind in result:
            continue
        if not isinstance(kind, str) or not _BOOK_KIND.fullmatch(kind):
            raise ValueError(
                f"books.{kind}: a kind of book is named with lower-case letters, "
                "digits and _ (like sevens or wild)"
            )
        if kind == ANY_BOOK:
            raise ValueError(f"books.{kind}: “{ANY_BOOK}” means books of any kind, so no kind is named so")
        result[kind] = whole(books[kind], f"books.{kind}", low=0)
    return result


def _going_out(value: Any) -> int | tuple[int, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(whole(v, f"going_out[{i}]") for i, v in enumerate(_non_empty_list(value, "going_out")))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"going_out: must be a whole number or a list of them, not {value!r}")
    return whole(value, "going_out")


def _meld_minimum(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "meld_minimum")
    if len(value) != 1 or next(iter(value)) not in ("by_round", "by_score"):
        raise ValueError(
            'meld_minimum: must be {"by_round": [...]}, {"by_score": [[from_score, minimum], ...]} or null'
        )
    if "by_round" in value:
        minimums = _non_empty_list(value["by_round"], "meld_minimum.by_round")
        return {
            "by_round": tuple(whole(v, f"meld_minimum.by_round[{i}]", low=0) for i, v in enumerate(minimums))
        }
    steps = []
    for i, step in enumerate(_non_empty_list(value["by_score"], "meld_minimum.by_score")):
        where = f"meld_minimum.by_score[{i}]"
        if isinstance(step, (str, Mapping)) or not isinstance(step, Sequence) or len(step) != 2:
            raise ValueError(f"{where}: must be a pair [from_score, minimum], not {step!r}")
        threshold = whole(step[0], f"{where}[0]")
        if steps and threshold <= steps[-1][0]:
            raise ValueError(f"{where}: scores must rise ({threshold} comes after {steps[-1][0]})")
        steps.append((threshold, whole(step[1], f"{where}[1]", low=0)))
    return {"by_score": tuple(steps)}


def _book_counts(value: Any, where: str, books: Mapping[str, int]) -> dict[str, int]:
    counts = _mapping(value, where)
    for kind in counts:
        if kind not in books and kind != ANY_BOOK:
            raise ValueError(f"{where}.{kind}: not a kind of book these rules score ({', '.join(books)})")
    return {
        kind: whole(counts[kind], f"{where}.{kind}", low=0, high=99)
        for kind in (*books, ANY_BOOK)
        if kind in counts
    }


def _books_by_round(value: Any, books: Mapping[str, int], where: str):
    """Book counts (books to go out, the first meld's books): the same each round,
    a list with one per round (the last repeats), or null."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return _book_counts(value, where, books)
    return tuple(_book_counts(v, f"{where}[{i}]", books) for i, v in enumerate(_non_empty_list(value, where)))


def _red_threes_all(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "red_threes_all")
    for key in value:
        if key not in ("count", "bonus"):
            raise ValueError(f'red_threes_all.{key}: not a field; it is {{"count": 4, "bonus": 400}}')
    for key in ("count", "bonus"):
        if key not in value:
            raise ValueError(f'red_threes_all.{key}: missing; it is {{"count": 4, "bonus": 400}}')
    return {
        "count": whole(value["count"], "red_threes_all.count", low=1, high=99),
        "bonus": _by_outcome(value["bonus"], "red_threes_all.bonus"),
    }


def _decks(value: Any):
    where = "deal.decks"
    if value is None:
        return None
    if isinstance(value, Mapping):
        for key in value:
            if key not in ("per_player", "extra"):
                raise ValueError(f'{where}.{key}: not a field; it is {{"per_player": 1, "extra": 1}}')
        if "per_player" not in value:
            raise ValueError(f"{where}.per_player: missing")
        return {
            "per_player": whole(value["per_player"], f"{where}.per_player", low=1, high=4),
            "extra": whole(value.get("extra", 0), f"{where}.extra", low=0, high=MAX_DECKS),
        }
    if isinstance(value, (list, tuple)):
        steps = []
        for i, step in enumerate(_non_empty_list(value, where)):
            at = f"{where}[{i}]"
            if isinstance(step, (str, Mapping)) or not isinstance(step, Sequence) or len(step) != 2:
                raise ValueError(f"{at}: must be a pair [from_players, decks], not {step!r}")
            players = whole(step[0], f"{at}[0]", low=1, high=MAX_PLAYERS)
            if steps and players <= steps[-1][0]:
                raise ValueError(f"{at}: players must rise ({players} comes after {steps[-1][0]})")
            steps.append((players, whole(step[1], f"{at}[1]", low=1, high=MAX_DECKS)))
        return tuple(steps)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            f'{where}: must be a number of decks, [[from_players, decks], …], {{"per_player": 1, '
            f'"extra": 1}} or null, not {value!r}'
        )
    return whole(value, where, low=1, high=MAX_DECKS)


def _deal(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "deal")
    for key in value:
        if key not in ("decks", "hand", "foot", "jokers"):
            raise ValueError(f"deal.{key}: not a field of the deal (decks, hand, foot, jokers)")
    for key in ("decks", "hand", "foot"):
        if key not in value:
            raise ValueError(f"deal.{key}: missing")
    return {
        "decks": _decks(value["decks"]),
        "hand": whole(value["hand"], "deal.hand", low=1, high=MAX_CARDS_DEALT),
        "foot": whole(value["foot"], "deal.foot", low=0, high=MAX_CARDS_DEALT),
        "jokers": whole(value.get("jokers", 2), "deal.jokers", low=0, high=4),
    }


def decks_for(rules: RuleSet, players: int) -> int | None:
    """How many decks the deal uses for this many players, or None when the rules do not say."""
    decks = rules.deal["decks"] if rules.deal else None
    if decks is None:
        return None
    whole(players, "players", low=1, high=MAX_PLAYERS)
    if isinstance(decks, int):
        return decks
    if isinstance(decks, Mapping):
        return decks["per_player"] * players + decks["extra"]
    count = decks[0][1]
    for from_players, step in decks:
        if players < from_players:
            break
        count = step
    return count


def _end(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "end")
    if len(value) != 1 or next(iter(value)) not in ("rounds", "score"):
        raise ValueError('end: must be {"rounds": n}, {"score": points} or null')
    if "rounds" in value:
        return {"rounds": whole(value["rounds"], "end.rounds", low=1, high=MAX_ROUNDS)}
    return {"score": whole(value["score"], "end.score", low=1)}


def _frozen(value):
    """Dicts become read-only views, so a shared preset cannot be edited in place."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, tuple):
        return tuple(_frozen(v) for v in value)
    return value


def per_round(values: Sequence, round_number: int):
    """The value for a round from a per-round list whose last entry repeats."""
    return values[min(round_number, len(values)) - 1]


def check_round_number(round_number: Any) -> int:
    return whole(round_number, "round_number", low=1, high=MAX_ROUNDS * 10)


# --------------------------------------------------------------------------
# The rule set


@dataclass(frozen=True, kw_only=True)
class RuleSet:
    """A house's scoring rules: the contents of a house-rules JSON file.

    Fields carry the file's own names and shapes. Constructing one (directly,
    by ``from_dict`` or by ``dataclasses.replace``) checks every value and
    raises ``ValueError`` naming the field; lists become tuples so that a
    rule set cannot change under a game that uses it.
    """

    name: str
    card_values: Mapping[str, int]
    black_three: int
    red_three: int
    red_three_melded: int | Mapping[str, int] = 0
    red_three_book: int | Mapping[str, int] = 0
    black_three_book: int | Mapping[str, int] = 0
    red_threes_all: Mapping[str, Any] | None = None
    # the books a team must make in a round to count as melded for the values'
    # not_melded case (Samba: 2, its red 3s count against a side with fewer); 0: any meld
    not_melded_books: int = 0
    black_three_out: int = 0
    books: Mapping[str, int]
    going_out: int | tuple[int, ...]
    going_out_concealed: int = 0
    cut_22: int = 0
    penalty: int = 0
    meld_minimum: Mapping[str, tuple] | None
    first_meld_books: Mapping[str, int] | tuple[Mapping[str, int], ...] | None = None
    books_to_go_out: Mapping[str, int] | tuple[Mapping[str, int], ...] | None
    end: Mapping[str, int] | None
    deal: Mapping[str, Any] | None = None
    # what the family calls the game, a book, each kind, the piles (scoring.words)
    words: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        books = _books(self.books)
        normalised = {
            "name": _name(self.name),
            "card_values": _card_values(self.card_values),
            **{name: _by_outcome(getattr(self, name), name) for name in OUTCOME_VALUES},
            "red_threes_all": _red_threes_all(self.red_threes_all),
            "not_melded_books": whole(self.not_melded_books, "not_melded_books", low=0, high=99),
            "black_three_out": whole(self.black_three_out, "black_three_out"),
            "books": books,
            "going_out": _going_out(self.going_out),
            "going_out_concealed": whole(self.going_out_concealed, "going_out_concealed"),
            "cut_22": whole(self.cut_22, "cut_22"),
            "penalty": whole(self.penalty, "penalty"),
            "meld_minimum": _meld_minimum(self.meld_minimum),
            "first_meld_books": _books_by_round(self.first_meld_books, books, "first_meld_books"),
            "books_to_go_out": _books_by_round(self.books_to_go_out, books, "books_to_go_out"),
            "end": _end(self.end),
            "deal": _deal(self.deal),
            "words": check_words(self.words, tuple(books)),
        }
        for name, value in normalised.items():
            object.__setattr__(self, name, _frozen(value))

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """Read a house-rules file's parsed JSON; ``ValueError`` names a bad field."""
        if not isinstance(data, Mapping):
            raise ValueError(
                "house rules: must be a JSON object with the fields " + ", ".join(_REQUIRED_FIELDS)
            )
        known = (*_REQUIRED_FIELDS, *_OPTIONAL_FIELDS, *_LATER_FIELDS)
        for key in data:
            if key not in known:
                raise ValueError(f"{key}: not a house-rules field (the fields are {', '.join(known)})")
        for key in _REQUIRED_FIELDS:
            if key not in data:
                raise ValueError(f"{key}: missing")
        return cls(**data)

    @classmethod
    def from_json(cls, text: str | bytes) -> RuleSet:
        """Read a house-rules file's text."""
        try:
            data = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"house rules: not a JSON file ({error})") from None
        except RecursionError:  # thousands of nested brackets: no house-rules file looks like that
            raise ValueError("house rules: not a house-rules file (nested too deeply)") from None
        return cls.from_dict(data)

    def to_dict(self) -> dict[str, Any]:
        """The house-rules file as plain JSON data (lists, not tuples)."""

        def plain(value):
            if isinstance(value, Mapping):
                return {k: plain(v) for k, v in value.items()}
            if isinstance(value, tuple):
                return [plain(v) for v in value]
            return value

        return {
            f.name: plain(getattr(self, f.name))
            for f in dataclasses.fields(self)
            if f.name not in _LATER_FIELDS or getattr(self, f.name) != _LATER_FIELDS[f.name]
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # Conveniences used by screens and sheets --------------------------------

    @property
    def say(self) -> Words:
        """The words these rules use: the file's ``words``, Hand and Foot's for the rest."""
        return Words.of(self.words)

    def book_label(self, kind: str) -> str:
        return self.say.book_label(kind)

    @property
    def planned_rounds(self) -> int | None:
        """How many rounds the game lasts, when the rules say so."""
        return self.end.get("rounds") if self.end else None

    @property
    def target_score(self) -> int | None:
        return self.end.get("score") if self.end else None
