"""The values of a house-rules file, each checked and normalised on its own.

Over 400 lines: every refusal is one whole sentence for its translators (issue 47),
the field's path kept apart from the words, and the readers belong together.

``RuleSet`` (``rules.py``) reads every field of a file through these; the
rest of the engine uses the bounds, ``whole``, ``by_outcome`` and
``per_round``. Each reader takes ``where``, the field's path, so that a
refused file says exactly which value is wrong
("meld_minimum.by_score[2]: ..."), and gives back plain data: dicts, and
tuples for lists (``frozen`` makes them read-only).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ..names import clean_name, name_problem
from .language import _

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
MAX_CARDS_DEALT = 50  # in one pile: a hand, a knee or a foot
#: The fields of ``deal``, in the order a file is written with them
DEAL_FIELDS = ("decks", "hand", "knee", "foot", "jokers")

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

#: How a second packet taken but never played counts (``packet_unplayed``): its
#: cards, entered with the points left (Burraco), or as a packet never taken (Buraco)
PACKET_CARDS, PACKET_NOT_TAKEN = "cards", "not_taken"
PACKET_UNPLAYED = (PACKET_CARDS, PACKET_NOT_TAKEN)
# a tie for the lead when the rules' end comes: the game ends a draw, or plays another round
# until the tie is broken (a casual Buraco or Burraco table)
TIE_DRAW, TIE_PLAY_ON = "draw", "play_on"
TIES = (TIE_DRAW, TIE_PLAY_ON)

RANK_ALIASES = {r.lower(): r for r in RANKS}
_BOOK_KIND = re.compile(r"[a-z][a-z0-9_]{0,29}")


def whole(value: Any, where: str, *, low: int = -MAX_RULE_VALUE, high: int = MAX_RULE_VALUE) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        # Translators: %(where)s is a value's path in a house-rules file ("card_values.K"): keep it first
        raise ValueError(
            _("%(where)s: must be a whole number, not %(value)s", where=where, value=repr(value))
        )
    if value < low:
        raise ValueError(
            _("%(where)s: must be at least %(low)s, not %(value)s", where=where, low=low, value=value)
        )
    if value > high:
        raise ValueError(
            _("%(where)s: must be at most %(high)s, not %(value)s", where=where, high=high, value=value)
        )
    return value


def outcome_value(value: Any, where: str) -> int | dict[str, int]:
    """A plain number, or ``{"went_out": a, "other_went_out": b, "nobody_out": c}``
    with an optional ``"not_melded"``; one that is the same in every case is a number."""
    if not isinstance(value, Mapping):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(
                _(
                    "%(where)s: must be a whole number, or an object with went_out, other_went_out "
                    "and nobody_out, not %(value)s",
                    where=where,
                    value=repr(value),
                )
            )
        return whole(value, where)
    for key in value:
        if key not in (*OUTCOMES, NOT_MELDED):
            raise ValueError(
                _(
                    "%(where)s: not a case; the cases are went_out, other_went_out, nobody_out "
                    "and (optional) not_melded",
                    where=where + "." + str(key),
                )
            )
    for key in OUTCOMES:
        if key not in value:
            raise ValueError(
                _("%(where)s: missing (a value by outcome gives every case)", where=where + "." + str(key))
            )
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
        raise ValueError(
            _(
                "%(where)s: must be an object of names and values, not %(value)s",
                where=where,
                value=repr(value),
            )
        )
    return value


def _non_empty_list(value: Any, where: str) -> list:
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ValueError(_("%(where)s: must be a list, not %(value)s", where=where, value=repr(value)))
    if not value:
        raise ValueError(_("%(where)s: must not be an empty list", where=where))
    if len(value) > MAX_ROUNDS:
        raise ValueError(_("%(where)s: at most %(most)s entries", where=where, most=MAX_ROUNDS))
    return list(value)


def name(value: Any) -> str:
    name = clean_name(value)
    if not name:
        raise ValueError(_("%(where)s: must be a non-empty text", where="name"))
    if len(name) > MAX_NAME_LENGTH:
        raise ValueError(_("%(where)s: at most %(most)s characters", where="name", most=MAX_NAME_LENGTH))
    problem = name_problem(name, MAX_NAME_LENGTH)
    if problem:
        raise ValueError(f"name: {problem[0].lower()}{problem[1:]}")
    return name


def card_values(value: Any) -> dict[str, int]:
    given: dict[str, int] = {}
    for rank, points in _mapping(value, "card_values").items():
        canonical = RANK_ALIASES.get(str(rank).lower())
        if canonical is None:
            raise ValueError(
                _(
                    "%(where)s: not a rank; the ranks are %(ranks)s "
                    "(3s are scored by red_three and black_three)",
                    where="card_values." + str(rank),
                    ranks=", ".join(RANKS),
                )
            )
        if canonical in given:
            raise ValueError(_("%(where)s: given twice", where="card_values." + str(rank)))
        given[canonical] = whole(points, f"card_values.{rank}", low=0, high=MAX_CARD_VALUE)
    for rank in RANKS:
        if rank not in given:
            raise ValueError(
                _("%(where)s: missing (every rank needs a value)", where="card_values." + str(rank))
            )
    return {rank: given[rank] for rank in RANKS}


def books(value: Any) -> dict[str, int]:
    books = _mapping(value, "books")
    for kind in ("clean", "dirty"):
        if kind not in books:
            raise ValueError(
                _(
                    "%(where)s: missing (every rule set scores clean and dirty books)",
                    where="books." + str(kind),
                )
            )
    result = {}
    # clean and dirty first, then the house's extra kinds in the file's order
    for kind in ("clean", "dirty", *books):
        if kind in result:
            continue
        if not isinstance(kind, str) or not _BOOK_KIND.fullmatch(kind):
            raise ValueError(
                _(
                    "%(where)s: a kind of book is named with lower-case letters, "
                    "digits and _ (like sevens or wild)",
                    where="books." + str(kind),
                )
            )
        if kind == ANY_BOOK:
            raise ValueError(
                _(
                    "%(where)s: “%(any)s” means books of any kind, so no kind is named so",
                    where="books." + str(kind),
                    any=ANY_BOOK,
                )
            )
        result[kind] = whole(books[kind], f"books.{kind}", low=0)
    return result


def going_out(value: Any) -> int | tuple[int, ...]:
    if isinstance(value, (list, tuple)):
        return tuple(whole(v, f"going_out[{i}]") for i, v in enumerate(_non_empty_list(value, "going_out")))
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            _("going_out: must be a whole number or a list of them, not %(value)s", value=repr(value))
        )
    return whole(value, "going_out")


def meld_minimum(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "meld_minimum")
    if len(value) != 1 or next(iter(value)) not in ("by_round", "by_score"):
        raise ValueError(
            _('meld_minimum: must be {"by_round": [...]}, {"by_score": [[from_score, minimum], ...]} or null')
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
            raise ValueError(
                _(
                    "%(where)s: must be a pair [from_score, minimum], not %(value)s",
                    where=where,
                    value=repr(step),
                )
            )
        threshold = whole(step[0], f"{where}[0]")
        if steps and threshold <= steps[-1][0]:
            raise ValueError(
                _(
                    "%(where)s: scores must rise (%(score)s comes after %(before)s)",
                    where=where,
                    score=threshold,
                    before=steps[-1][0],
                )
            )
        steps.append((threshold, whole(step[1], f"{where}[1]", low=0)))
    return {"by_score": tuple(steps)}


def _book_counts(value: Any, where: str, books: Mapping[str, int]) -> dict[str, int]:
    counts = _mapping(value, where)
    for kind in counts:
        if kind not in books and kind != ANY_BOOK:
            raise ValueError(
                _(
                    "%(where)s: not a kind of book these rules score (%(kinds)s)",
                    where=where + "." + str(kind),
                    kinds=", ".join(books),
                )
            )
    return {
        kind: whole(counts[kind], f"{where}.{kind}", low=0, high=99)
        for kind in (*books, ANY_BOOK)
        if kind in counts
    }


def books_by_round(value: Any, books: Mapping[str, int], where: str):
    """Book counts (books to go out, the first meld's books): the same each round,
    a list with one per round (the last repeats), or null."""
    if value is None:
        return None
    if isinstance(value, Mapping):
        return _book_counts(value, where, books)
    return tuple(_book_counts(v, f"{where}[{i}]", books) for i, v in enumerate(_non_empty_list(value, where)))


def red_threes_all(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "red_threes_all")
    for key in value:
        if key not in ("count", "bonus"):
            raise ValueError(
                _(
                    '%(where)s: not a field; it is {"count": 4, "bonus": 400}',
                    where="red_threes_all." + str(key),
                )
            )
    for key in ("count", "bonus"):
        if key not in value:
            raise ValueError(
                _('%(where)s: missing; it is {"count": 4, "bonus": 400}', where="red_threes_all." + str(key))
            )
    return {
        "count": whole(value["count"], "red_threes_all.count", low=1, high=99),
        "bonus": outcome_value(value["bonus"], "red_threes_all.bonus"),
    }


def _decks(value: Any):
    where = "deal.decks"
    if value is None:
        return None
    if isinstance(value, Mapping):
        for key in value:
            if key not in ("per_player", "extra"):
                raise ValueError(
                    _(
                        '%(where)s: not a field; it is {"per_player": 1, "extra": 1}',
                        where=where + "." + str(key),
                    )
                )
        if "per_player" not in value:
            raise ValueError(_("%(where)s: missing", where=where + ".per_player"))
        return {
            "per_player": whole(value["per_player"], f"{where}.per_player", low=1, high=4),
            "extra": whole(value.get("extra", 0), f"{where}.extra", low=0, high=MAX_DECKS),
        }
    if isinstance(value, (list, tuple)):
        steps = []
        for i, step in enumerate(_non_empty_list(value, where)):
            at = f"{where}[{i}]"
            if isinstance(step, (str, Mapping)) or not isinstance(step, Sequence) or len(step) != 2:
                raise ValueError(
                    _(
                        "%(where)s: must be a pair [from_players, decks], not %(value)s",
                        where=at,
                        value=repr(step),
                    )
                )
            players = whole(step[0], f"{at}[0]", low=1, high=MAX_PLAYERS)
            if steps and players <= steps[-1][0]:
                raise ValueError(
                    _(
                        "%(where)s: players must rise (%(players)s comes after %(before)s)",
                        where=at,
                        players=players,
                        before=steps[-1][0],
                    )
                )
            steps.append((players, whole(step[1], f"{at}[1]", low=1, high=MAX_DECKS)))
        return tuple(steps)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(
            _(
                '%(where)s: must be a number of decks, [[from_players, decks], …], {"per_player": 1, '
                '"extra": 1} or null, not %(value)s',
                where=where,
                value=repr(value),
            )
        )
    return whole(value, where, low=1, high=MAX_DECKS)


def deal(value: Any) -> dict | None:
    """The deal: decks, the cards in a hand, a knee (0, the default: none; only
    written when there is one, so a file from before knees reads and writes
    back as it was) and a foot, and jokers per deck."""
    if value is None:
        return None
    value = _mapping(value, "deal")
    for key in value:
        if key not in DEAL_FIELDS:
            raise ValueError(
                _(
                    "%(where)s: not a field of the deal (%(fields)s)",
                    where="deal." + str(key),
                    fields=", ".join(DEAL_FIELDS),
                )
            )
    for key in ("decks", "hand", "foot"):
        if key not in value:
            raise ValueError(_("%(where)s: missing", where="deal." + str(key)))
    knee = whole(value.get("knee", 0), "deal.knee", low=0, high=MAX_CARDS_DEALT)
    return {
        "decks": _decks(value["decks"]),
        "hand": whole(value["hand"], "deal.hand", low=1, high=MAX_CARDS_DEALT),
        **({"knee": knee} if knee else {}),
        "foot": whole(value["foot"], "deal.foot", low=0, high=MAX_CARDS_DEALT),
        "jokers": whole(value.get("jokers", 2), "deal.jokers", low=0, high=4),
    }


def end(value: Any) -> dict | None:
    if value is None:
        return None
    value = _mapping(value, "end")
    if len(value) != 1 or next(iter(value)) not in ("rounds", "score"):
        raise ValueError('end: must be {"rounds": n}, {"score": points} or null')
    if "rounds" in value:
        return {"rounds": whole(value["rounds"], "end.rounds", low=1, high=MAX_ROUNDS)}
    return {"score": whole(value["score"], "end.score", low=1)}


def packet_unplayed(value: Any) -> str:
    if value not in PACKET_UNPLAYED:
        raise ValueError(f"packet_unplayed: must be {' or '.join(PACKET_UNPLAYED)}, not {value!r}")
    return value


def tie(value: Any) -> str:
    if value not in TIES:
        raise ValueError(f"tie: must be {' or '.join(TIES)}, not {value!r}")
    return value


def frozen(value):
    """Dicts become read-only views, so a shared preset cannot be edited in place."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, tuple):
        return tuple(frozen(v) for v in value)
    return value


def per_round(values: Sequence, round_number: int):
    """The value for a round from a per-round list whose last entry repeats."""
    return values[min(round_number, len(values)) - 1]


def check_round_number(round_number: Any) -> int:
    return whole(round_number, "round_number", low=1, high=MAX_ROUNDS * 10)
