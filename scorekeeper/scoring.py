"""The scoring engine: every number Scorekeeper shows, prints or exports.

Pure Python on purpose (no Flask, no SQLite) so that the round screen, the
printed sheet, the JSON export and the tests share one source of truth.

A rule set is data, the "house-rules file" (see ``RuleSet``). Every value in
it is *points added to the team's score per unit*, so penalties are negative
numbers and the engine only ever multiplies and adds. Nothing below hard-codes
a family's numbers except the five presets at the bottom, transcribed from
``shared/RULES.md``.
"""

from __future__ import annotations

import dataclasses
import heapq
import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

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

_RANK_ALIASES = {r.lower(): r for r in RANKS}
_BOOK_KIND = re.compile(r"[a-z][a-z0-9_]{0,29}")
# 4 up to K, for naming runs of ranks such as "8–K".
_RUN_ORDER = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_PLURALS = {"joker": "Jokers", "2": "2s", "A": "Aces", "K": "Kings",
                 "Q": "Queens", "J": "Jacks"}
_BOOK_LABELS = {"clean": "Clean (red) books", "dirty": "Dirty (black) books",
                "sevens": "Books of 7s", "wild": "Wild-card books"}

_REQUIRED_FIELDS = ("name", "card_values", "black_three", "red_three", "books",
                    "going_out", "meld_minimum", "books_to_go_out", "end")
# House extras that most rule sets do not use; a file may leave them out.
_OPTIONAL_FIELDS = ("red_three_melded", "cut_22", "penalty")


# --------------------------------------------------------------------------
# Checking and normalising the values of a house-rules file.
# Each helper takes ``where``, the field's path, so that a refused file says
# exactly which value is wrong ("meld_minimum.by_score[2]: ...").


def _whole(value: Any, where: str, *, low: int = -MAX_RULE_VALUE,
           high: int = MAX_RULE_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: must be a whole number, not {value!r}")
    if value < low:
        raise ValueError(f"{where}: must be at least {low}, not {value}")
    if value > high:
        raise ValueError(f"{where}: must be at most {high}, not {value}")
    return value


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
    if not isinstance(value, str) or not value.strip():
        raise ValueError("name: must be a non-empty text")
    value = " ".join(value.split())
    if len(value) > MAX_NAME_LENGTH:
        raise ValueError(f"name: at most {MAX_NAME_LENGTH} characters")
    return value


def _card_values(value: Any) -> dict[str, int]:
    given: dict[str, int] = {}
    for rank, points in _mapping(value, "card_values").items():
        canonical = _RANK_ALIASES.get(str(rank).lower())
        if canonical is None:
            raise ValueError(
                f"card_values.{rank}: not a rank; the ranks are {', '.join(RANKS)} "
                "(3s are scored by red_three and black_three)")
        if canonical in given:
            raise ValueError(f"card_values.{rank}: given twice")
        given[canonical] = _whole(points, f"card_values.{rank}", low=0, high=MAX_CARD_VALUE)
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
                "digits and _ (like sevens or wild)")
        result[kind] = _whole(books[kind], f"books.{kind}", low=0)
    return result


def _going_out(value: Any) -> int | tuple[int, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(_whole(v, f"going_out[{i}]")
                     for i, v in enumerate(_non_empty_list(value, "going_out")))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"going_out: must be a whole number or a list of them, not {value!r}")
    return _whole(value, "going_out")


def _meld_minimum(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "meld_minimum")
    if len(value) != 1 or next(iter(value)) not in ("by_round", "by_score"):
        raise ValueError('meld_minimum: must be {"by_round": [...]}, '
                         '{"by_score": [[from_score, minimum], ...]} or null')
    if "by_round" in value:
        minimums = _non_empty_list(value["by_round"], "meld_minimum.by_round")
        return {"by_round": tuple(_whole(v, f"meld_minimum.by_round[{i}]", low=0)
                                  for i, v in enumerate(minimums))}
    steps = []
    for i, step in enumerate(_non_empty_list(value["by_score"], "meld_minimum.by_score")):
        where = f"meld_minimum.by_score[{i}]"
        if isinstance(step, (str, Mapping)) or not isinstance(step, Sequence) or len(step) != 2:
            raise ValueError(f"{where}: must be a pair [from_score, minimum], not {step!r}")
        threshold = _whole(step[0], f"{where}[0]")
        if steps and threshold <= steps[-1][0]:
            raise ValueError(f"{where}: scores must rise ({threshold} comes after {steps[-1][0]})")
        steps.append((threshold, _whole(step[1], f"{where}[1]", low=0)))
    return {"by_score": tuple(steps)}


def _book_counts(value: Any, where: str, books: Mapping[str, int]) -> dict[str, int]:
    counts = _mapping(value, where)
    for kind in counts:
        if kind not in books:
            raise ValueError(f"{where}.{kind}: not a kind of book these rules score "
                             f"({', '.join(books)})")
    return {kind: _whole(counts[kind], f"{where}.{kind}", low=0, high=99)
            for kind in books if kind in counts}


def _books_to_go_out(value: Any, books: Mapping[str, int]):
    if value is None:
        return None
    if isinstance(value, Mapping):
        return _book_counts(value, "books_to_go_out", books)
    return tuple(_book_counts(v, f"books_to_go_out[{i}]", books)
                 for i, v in enumerate(_non_empty_list(value, "books_to_go_out")))


def _end(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "end")
    if len(value) != 1 or next(iter(value)) not in ("rounds", "score"):
        raise ValueError('end: must be {"rounds": n}, {"score": points} or null')
    if "rounds" in value:
        return {"rounds": _whole(value["rounds"], "end.rounds", low=1, high=MAX_ROUNDS)}
    return {"score": _whole(value["score"], "end.score", low=1)}


def _frozen(value):
    """Dicts become read-only views, so a shared preset cannot be edited in place."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _per_round(values: Sequence, round_number: int):
    """The value for a round from a per-round list whose last entry repeats."""
    return values[min(round_number, len(values)) - 1]


def _check_round_number(round_number: Any) -> int:
    return _whole(round_number, "round_number", low=1, high=MAX_ROUNDS * 10)


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
    red_three_melded: int = 0
    books: Mapping[str, int]
    going_out: int | tuple[int, ...]
    cut_22: int = 0
    penalty: int = 0
    meld_minimum: Mapping[str, tuple] | None
    books_to_go_out: Mapping[str, int] | tuple[Mapping[str, int], ...] | None
    end: Mapping[str, int] | None

    def __post_init__(self) -> None:
        books = _books(self.books)
        normalised = {
            "name": _name(self.name),
            "card_values": _card_values(self.card_values),
            "black_three": _whole(self.black_three, "black_three"),
            "red_three": _whole(self.red_three, "red_three"),
            "red_three_melded": _whole(self.red_three_melded, "red_three_melded"),
            "books": books,
            "going_out": _going_out(self.going_out),
            "cut_22": _whole(self.cut_22, "cut_22"),
            "penalty": _whole(self.penalty, "penalty"),
            "meld_minimum": _meld_minimum(self.meld_minimum),
            "books_to_go_out": _books_to_go_out(self.books_to_go_out, books),
            "end": _end(self.end),
        }
        for name, value in normalised.items():
            object.__setattr__(self, name, _frozen(value))

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """Read a house-rules file's parsed JSON; ``ValueError`` names a bad field."""
        if not isinstance(data, Mapping):
            raise ValueError("house rules: must be a JSON object with the fields "
                             + ", ".join(_REQUIRED_FIELDS))
        for key in data:
            if key not in _REQUIRED_FIELDS + _OPTIONAL_FIELDS:
                raise ValueError(f"{key}: not a house-rules field (the fields are "
                                 + ", ".join(_REQUIRED_FIELDS + _OPTIONAL_FIELDS) + ")")
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
        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, ensure_ascii=False) + "\n"

    # Conveniences used by screens and sheets --------------------------------

    def book_label(self, kind: str) -> str:
        return _BOOK_LABELS.get(kind, kind.replace("_", " ").capitalize() + " books")

    @property
    def planned_rounds(self) -> int | None:
        """How many rounds the game lasts, when the rules say so."""
        return self.end.get("rounds") if self.end else None

    @property
    def target_score(self) -> int | None:
        return self.end.get("score") if self.end else None


def going_out_bonus(rules: RuleSet, round_number: int) -> int:
    """The going-out bonus in a round (a per-round list's last value repeats)."""
    _check_round_number(round_number)
    if isinstance(rules.going_out, tuple):
        return _per_round(rules.going_out, round_number)
    return rules.going_out


def books_to_go_out(rules: RuleSet, round_number: int) -> dict[str, int] | None:
    """The books a team needs before it may go out in a round, or None."""
    _check_round_number(round_number)
    needed = rules.books_to_go_out
    if isinstance(needed, tuple):
        needed = _per_round(needed, round_number)
    return None if needed is None else dict(needed)


def meld_minimum(rules: RuleSet, round_number: int, score_before: int) -> int | None:
    """The points a team's first meld must reach, or None when the rules set none.

    ``by_round`` follows the round number (the last value repeats);
    ``by_score`` follows the team's own total before the round, and a total
    below the first threshold gets the first minimum.
    """
    _check_round_number(round_number)
    _whole(score_before, "score_before", low=-10**9, high=10**9)
    rule = rules.meld_minimum
    if rule is None:
        return None
    if "by_round" in rule:
        return _per_round(rule["by_round"], round_number)
    steps = rule["by_score"]
    minimum = steps[0][1]
    for threshold, value in steps:
        if score_before < threshold:
            break
        minimum = value
    return minimum


# --------------------------------------------------------------------------
# One team's round


@dataclass(frozen=True, kw_only=True)
class TeamRound:
    """One team's entries for one round, as the scorekeeper typed them.

    Values are stored as given, even wrong ones, so that ``check_round`` can
    tell the table what is wrong; ``score_team_round`` refuses them.
    """

    books: Mapping[str, int] = field(default_factory=dict)
    melded_points: int = 0
    unplayed_points: int = 0
    red_threes: int = 0
    black_threes: int = 0
    red_threes_melded: int = 0
    went_out: bool = False
    cuts: int = 0
    penalties: int = 0

    def __post_init__(self) -> None:
        if isinstance(self.books, Mapping):
            object.__setattr__(self, "books", MappingProxyType(dict(self.books)))

    def __hash__(self) -> int:
        return hash((tuple(sorted(self.books.items())) if isinstance(self.books, Mapping) else None,
                     *(getattr(self, name) for name in _COUNT_FIELDS), self.went_out))

    def to_dict(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        return {**data, "books": dict(self.books)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TeamRound:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


_COUNT_FIELDS = ("melded_points", "unplayed_points", "red_threes", "black_threes",
                 "red_threes_melded", "cuts", "penalties")
_FIELD_LABELS = {
    "melded_points": "Melded points", "unplayed_points": "Points left in hand and foot",
    "red_threes": "Red 3s caught", "black_threes": "Black 3s caught",
    "red_threes_melded": "Red 3s laid down", "cuts": "22-card cuts",
    "penalties": "Penalties", "went_out": "Went out",
}


def _entry_problems(rules: RuleSet, entry: TeamRound) -> list[tuple[str, str]]:
    """(field, message) for every value that cannot be scored at all."""
    problems = []
    if not isinstance(entry.books, Mapping):
        return [("books", "Books must be a count for each kind of book.")]
    for kind, count in entry.books.items():
        where = f"books.{kind}"
        if kind not in rules.books:
            problems.append((where, f"These rules have no “{kind}” books."))
        elif isinstance(count, bool) or not isinstance(count, int):
            problems.append((where, f"{rules.book_label(kind)} must be a whole number."))
        elif count < 0:
            problems.append((where, f"{rules.book_label(kind)} can’t be negative."))
    for name in _COUNT_FIELDS:
        value = getattr(entry, name)
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append((name, f"{_FIELD_LABELS[name]} must be a whole number."))
        elif value < 0:
            problems.append((name, f"{_FIELD_LABELS[name]} can’t be negative."))
    if not isinstance(entry.went_out, bool):
        problems.append(("went_out", "Went out must be yes or no."))
    return problems


class Line(NamedTuple):
    """One line of a breakdown, shown as it is on screens and sheets."""

    label: str
    count: int | None  # None for lines that are points, not counts
    points: int


class TeamRoundScore(int):
    """One team's score for one round.

    It *is* its total (an ``int``, so it adds, compares and serialises like
    one) and carries the line-by-line ``breakdown`` that screens and sheets
    show as it is.
    """

    breakdown: tuple[Line, ...]

    def __new__(cls, breakdown: Sequence[Line]) -> TeamRoundScore:
        breakdown = tuple(breakdown)
        score = super().__new__(cls, sum(line.points for line in breakdown))
        object.__setattr__(score, "breakdown", breakdown)
        return score

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __reduce__(self):
        return (TeamRoundScore, (self.breakdown,))

    @property
    def total(self) -> int:
        return int(self)

    @property
    def lines(self) -> tuple[Line, ...]:
        return self.breakdown

    __str__ = int.__repr__

    def __repr__(self) -> str:
        return f"TeamRoundScore(total={int(self)}, breakdown={list(self.breakdown)!r})"


def score_team_round(rules: RuleSet, team_round: TeamRound, round_number: int) -> TeamRoundScore:
    """Score one team's round; wrong entries raise ``ValueError``.

    A line appears when the rules score it, or when something was entered for
    it (a black 3 worth 0 still shows), so a sheet's rows line up per rule set.
    """
    _check_round_number(round_number)
    problems = _entry_problems(rules, team_round)
    if problems:
        raise ValueError("; ".join(f"{where}: {message}" for where, message in problems))
    entry = team_round
    lines = [Line(rules.book_label(kind), entry.books.get(kind, 0),
                  entry.books.get(kind, 0) * value)
             for kind, value in rules.books.items()]
    lines.append(Line("Melded", None, entry.melded_points))
    lines.append(Line("Left in hand and foot", None, -entry.unplayed_points))
    counted = (
        ("Red 3s caught", entry.red_threes, rules.red_three),
        ("Black 3s caught", entry.black_threes, rules.black_three),
        ("Red 3s laid down", entry.red_threes_melded, rules.red_three_melded),
        ("Went out", int(entry.went_out), going_out_bonus(rules, round_number)),
        ("22-card cuts", entry.cuts, rules.cut_22),
        ("Penalties", entry.penalties, rules.penalty),
    )
    for label, count, value in counted:
        if value or count:
            lines.append(Line(label, count, count * value))
    return TeamRoundScore(lines)


# --------------------------------------------------------------------------
# Checking a round before it is saved


@dataclass(frozen=True)
class Problem:
    """Something wrong (``"error"``: cannot be saved) or odd (``"warning"``)."""

    level: str
    team: int | None
    message: str
    field: str | None = None  # the entry it is about, to show it next to that field


@lru_cache(maxsize=128)
def _smallest_sums(values: tuple[int, ...]) -> tuple[int, tuple[float, ...]]:
    """(g, least): which totals the card values can make.

    With the values divided by their gcd ``g`` and ``m`` the smallest of them,
    ``least[r]`` is the smallest total that cards can make with remainder
    ``r`` modulo ``m``; every larger total with that remainder can be made too
    (add cards of the smallest value). A shortest-path search over the ``m``
    remainders, so any house's values are exact, not just multiples of 5.
    """
    coins = sorted({v for v in values if v > 0})
    if not coins:
        return 0, ()
    g = math.gcd(*coins)
    coins = [c // g for c in coins]
    m = coins[0]
    least = [math.inf] * m
    least[0] = 0
    queue = [(0, 0)]
    while queue:
        total, remainder = heapq.heappop(queue)
        if total > least[remainder]:
            continue
        for coin in coins[1:]:
            reached = total + coin
            if reached < least[reached % m]:
                least[reached % m] = reached
                heapq.heappush(queue, (reached, reached % m))
    return g, tuple(least)


def can_make_points(rules: RuleSet, points: int) -> bool:
    """Whether some set of cards adds up to exactly ``points`` under these rules."""
    if points == 0:
        return True
    if points < 0:
        return False
    g, least = _smallest_sums(tuple(rules.card_values.values()))
    if not g or points % g:
        return False
    units = points // g
    return units >= least[units % len(least)]


def least_book_points(rules: RuleSet, kind: str) -> int:
    """The fewest card points a completed book of this kind can hold.

    A clean book is 7 naturals; a dirty one at least 4 naturals and 1 to 3
    wilds; a book of 7s is 7s with at most 3 wilds; a wild book is 7 wilds. A
    kind the engine does not know gets the cheapest 7-card book of any sort,
    so the check never warns about a legal round.
    """
    values = rules.card_values
    natural = min(values[r] for r in NATURAL_RANKS)
    wild = min(values[r] for r in WILD_RANKS)

    def mixed(natural_value: int, wilds: range) -> int:
        return min((BOOK_SIZE - w) * natural_value + w * wild for w in wilds)

    dirty = mixed(natural, range(1, MAX_WILDS_IN_BOOK + 1))
    if kind == "clean":
        return BOOK_SIZE * natural
    if kind == "dirty":
        return dirty
    if kind == "sevens":
        return mixed(values["7"], range(0, MAX_WILDS_IN_BOOK + 1))
    if kind == "wild":
        return BOOK_SIZE * wild
    return min(BOOK_SIZE * natural, dirty, BOOK_SIZE * wild)


def _describe_books(rules: RuleSet, counts: Mapping[str, int]) -> str:
    """ "5 clean and 4 dirty books", "1 clean book", "no books", in the rules' order. """
    parts = [f"{counts[kind]} {kind.replace('_', ' ')}" for kind in rules.books if counts.get(kind)]
    if not parts:
        return "no books"
    return _join(parts) + (" book" if sum(counts.values()) == 1 else " books")


def check_round(rules: RuleSet, entries: Sequence[TeamRound], round_number: int, *,
                team_names: Sequence[str] | None = None) -> list[Problem]:
    """Everything wrong or odd about a round's entries, for the person at the table.

    Errors block the save: two teams out, a points total no cards can make,
    negative or unknown values. Warnings ask for a second look: going out
    without the books, fewer melded points than the books hold, books with
    no melded points. A team with an error gets no warnings, which would
    only repeat the mistake.
    """
    _check_round_number(round_number)
    names = list(team_names or []) + [f"Team {i + 1}" for i in range(len(team_names or []), len(entries))]
    problems: list[Problem] = []
    out = [i for i, entry in enumerate(entries) if entry.went_out is True]
    if len(out) > 1:
        problems.append(Problem(
            "error", None,
            f"Only one team can go out in a round; {_join([names[i] for i in out])} are "
            f"{'both' if len(out) == 2 else 'all'} marked as going out.", "went_out"))
    needed = books_to_go_out(rules, round_number)
    when = f"in round {round_number} " if isinstance(rules.books_to_go_out, tuple) else ""
    g = _smallest_sums(tuple(rules.card_values.values()))[0]
    for team, entry in enumerate(entries):
        name = names[team]
        errors = [Problem("error", team, f"{name}: {message}", where)
                  for where, message in _entry_problems(rules, entry)]
        for where, label in (("melded_points", "melded"), ("unplayed_points", "left in hand and foot")):
            points = getattr(entry, where)
            if any(e.field == where for e in errors) or can_make_points(rules, points):
                continue
            hint = (f"every card is worth a multiple of {g}" if g > 1 and points % g
                    else "no set of cards adds up to that")
            errors.append(Problem(
                "error", team,
                f"{name}: {points} points {label} can’t be right — {hint}. Check for a typo.", where))
        problems += errors
        if errors:
            continue
        if entry.went_out and needed is not None:
            if any(entry.books.get(kind, 0) < count for kind, count in needed.items()):
                problems.append(Problem(
                    "warning", team,
                    f"{name} went out with {_describe_books(rules, entry.books)}, but going "
                    f"out {when}takes {_describe_books(rules, needed)}.", "went_out"))
        least = sum(count * least_book_points(rules, kind) for kind, count in entry.books.items())
        if least and entry.melded_points == 0:
            problems.append(Problem(
                "warning", team,
                f"{name} has books but no melded points. Books count their cards "
                "in the melded points too.", "melded_points"))
        elif entry.melded_points < least:
            problems.append(Problem(
                "warning", team,
                f"{name} melded {entry.melded_points} points, but "
                f"{_describe_books(rules, entry.books)} "
                f"{'holds' if sum(entry.books.values()) == 1 else 'hold'} at least "
                f"{least} points of cards.", "melded_points"))
    return problems


# --------------------------------------------------------------------------
# A whole game


@dataclass(frozen=True)
class Standings:
    """Where a game stands after its rounds (lists are in team order)."""

    round_scores: list[list[TeamRoundScore]]  # per round, per team
    running_totals: list[list[int]]  # per round, per team: the total after it
    meld_minimums: list[list[int | None]]  # per round, per team: the minimum it had
    totals: list[int]
    next_round: int
    next_meld_minimums: list[int | None]
    next_books_to_go_out: dict[str, int] | None
    finished: bool
    winners: list[int]


def standings(rules: RuleSet, rounds: Sequence[Sequence[TeamRound]], *,
              teams: int | None = None, ended: bool = False) -> Standings:
    """Score every round of a game and say where it stands.

    :param rounds: the rounds in order, each a list of ``TeamRound`` in team order.
    :param teams: the number of teams, needed only before the first round.
    :param ended: the table ended the game by hand (always allowed; the only
        way to end one whose rules leave the end to the table).

    Every round given is scored, even one played after the rules' end: the
    table decides whether to play on, and the totals say who is ahead.
    """
    if teams is None:
        teams = len(rounds[0]) if rounds else 0
    for number, entries in enumerate(rounds, start=1):
        if len(entries) != teams:
            raise ValueError(f"round {number}: {len(entries)} teams, expected {teams}")
    totals = [0] * teams
    round_scores, running, minimums = [], [], []
    reached_target = False
    for number, entries in enumerate(rounds, start=1):
        minimums.append([meld_minimum(rules, number, total) for total in totals])
        scores = [score_team_round(rules, entry, number) for entry in entries]
        totals = [total + score for total, score in zip(totals, scores)]
        round_scores.append(scores)
        running.append(list(totals))
        if rules.target_score is not None and max(totals, default=0) >= rules.target_score:
            reached_target = True
    next_round = len(rounds) + 1
    finished = (ended or reached_target
                or (rules.planned_rounds is not None and len(rounds) >= rules.planned_rounds))
    best = max(totals, default=None)
    winners = [i for i, t in enumerate(totals) if t == best] if finished else []
    return Standings(
        round_scores=round_scores,
        running_totals=running,
        meld_minimums=minimums,
        totals=totals,
        next_round=next_round,
        next_meld_minimums=[meld_minimum(rules, next_round, total) for total in totals],
        next_books_to_go_out=books_to_go_out(rules, next_round),
        finished=finished,
        winners=winners,
    )


# --------------------------------------------------------------------------
# The card-count helper


class Tier(str):
    """Ranks worth the same under a rule set: the text "8–K 10", which also
    carries its parts (``label`` "8–K", ``value`` 10, ``ranks``)."""

    label: str
    value: int
    ranks: tuple[str, ...]

    def __new__(cls, label: str, value: int, ranks: Sequence[str]) -> Tier:
        tier = super().__new__(cls, f"{label} {value}")
        for name, part in (("label", label), ("value", value), ("ranks", tuple(ranks))):
            object.__setattr__(tier, name, part)
        return tier

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __reduce__(self):
        return (Tier, (self.label, self.value, self.ranks))

    def __repr__(self) -> str:
        return f"Tier({self.label!r}, {self.value!r}, {self.ranks!r})"


def _join(parts: Sequence[str]) -> str:
    parts = list(parts)
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _tier_label(ranks: Sequence[str]) -> str:
    parts = [_RANK_PLURALS[r] for r in ("joker", "2", "A") if r in ranks]
    run: list[str] = []
    for rank in (*_RUN_ORDER, None):  # None closes the last run
        if rank is not None and rank in ranks:
            run.append(rank)
            continue
        if len(run) == 1:
            parts.append(_RANK_PLURALS.get(run[0], run[0] + "s"))
        elif run:
            parts.append(f"{run[0]}–{run[-1]}")
        run = []
    return _join(parts)


def value_tiers(rules: RuleSet) -> list[Tier]:
    """The ranks grouped by value, highest value first."""
    by_value: dict[int, list[str]] = {}
    for rank in RANKS:
        by_value.setdefault(rules.card_values[rank], []).append(rank)
    return [Tier(_tier_label(ranks), value, tuple(ranks))
            for value, ranks in sorted(by_value.items(), reverse=True)]


def card_points(rules: RuleSet, counts: Mapping[str, int]) -> int:
    """Points for a count of cards per rank (``{"joker": 1, "K": 3}`` → 80)."""
    total = 0
    for rank, count in counts.items():
        canonical = _RANK_ALIASES.get(str(rank).lower())
        if canonical is None:
            raise ValueError(f"{rank}: not a rank; the ranks are {', '.join(RANKS)}")
        total += _whole(count, f"{rank}", low=0, high=10_000) * rules.card_values[canonical]
    return total


# --------------------------------------------------------------------------
# The five written rule sets (shared/RULES.md). Where a source is silent the
# digest says to use the value in its last column (the 004 set): that gives
# the tablet game its books to go out. 0 means "this rule set does not use it".

_STANDARD_VALUES = {"joker": 50, "2": 20, "A": 20, "K": 10, "Q": 10, "J": 10,
                    "10": 10, "9": 10, "8": 10, "7": 5, "6": 5, "5": 5, "4": 5}
_LOW_NINES_VALUES = {**_STANDARD_VALUES, "9": 5, "8": 5}  # 003 and 004: 8s and 9s are 5
_BOOKS = {"clean": 500, "dirty": 300}

RULESETS: dict[str, RuleSet] = {
    "friends-family": RuleSet(
        name="Friends & Family online edition",
        card_values=_STANDARD_VALUES, black_three=-5, red_three=-500, books=_BOOKS,
        going_out=100, meld_minimum={"by_round": [50, 90, 120, 150]},
        # the four-player requirement; 3 + 4 for two players is a setup choice
        books_to_go_out={"clean": 4, "dirty": 5}, end={"rounds": 4}),
    "partnership": RuleSet(
        name="Partnership rules (22-card cut)",
        card_values=_STANDARD_VALUES, black_three=-5, red_three=-100, books=_BOOKS,
        going_out=100, cut_22=100,
        # no points minimum: the first meld must hold a clean and a dirty book
        meld_minimum=None,
        books_to_go_out={"clean": 3, "dirty": 4}, end=None),
    "tablet": RuleSet(
        name="Tablet game (5 hands)",
        card_values=_STANDARD_VALUES, black_three=-5, red_three=-100, books=_BOOKS,
        going_out=200, meld_minimum={"by_round": [50, 75, 100, 125, 150]},
        books_to_go_out={"clean": 2, "dirty": 2}, end={"rounds": 5}),
    "roth": RuleSet(
        name="Roth family house rules (to 10,000)",
        card_values=_LOW_NINES_VALUES, black_three=0, red_three=-500, books=_BOOKS,
        going_out=100, cut_22=100, penalty=-100,
        meld_minimum={"by_score": [[0, 50], [2500, 90], [5000, 120], [7500, 150]]},
        books_to_go_out={"clean": 5, "dirty": 4}, end={"score": 10000}),
    "forfeit": RuleSet(
        name="Five hands with forfeits",
        card_values=_LOW_NINES_VALUES, black_three=-5, red_three=-100, books=_BOOKS,
        going_out=1000, meld_minimum={"by_round": [60, 90, 120, 150, 180]},
        books_to_go_out={"clean": 2, "dirty": 2}, end={"rounds": 5}),
}
