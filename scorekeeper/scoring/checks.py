"""Checking a round before it is saved: errors that block it, warnings worth a second look.

Over 400 lines: each message is one whole sentence for its translators (issue 47), a
sentence per case where the English varies, and the checks read best side by side.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import join
from .deal import deck
from .entries import TeamRound, entry_fields, entry_problems, has_melded
from .language import _, ngettext, number
from .minimums import books_short, books_to_go_out, first_meld_books
from .rules import RuleSet
from .values import (
    ANY_BOOK,
    BOOK_SIZE,
    MAX_WILDS_IN_BOOK,
    NATURAL_RANKS,
    WILD_RANKS,
    check_round_number,
    in_use,
)
from .words import capital, counted


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


def least_meld_points(rules: RuleSet, books: Mapping[str, int]) -> int:
    """The fewest card points that a team's books can hold."""
    return sum(count * least_book_points(rules, kind) for kind, count in books.items())


def _describe_books(rules: RuleSet, counts: Mapping[str, int]) -> str:
    """ "5 clean and 4 dirty books", "1 clean book", "1 book of any kind", "no books",
    in the rules' order."""
    words = rules.say
    text = counted({kind: counts[kind] for kind in rules.books if counts.get(kind)}, words, "and")
    total = counts.get(ANY_BOOK, 0)
    if total:
        # Translators: a number of books: "3 books"
        any_kind = _("%(count)s %(books)s", count=total, books=words.count(total))
        return (
            # Translators: "2 clean books and 3 books in all"
            _("%(books)s and %(total)s in all", books=text, total=any_kind)
            if text
            # Translators: "3 books of any kind"
            else _("%(books)s of any kind", books=any_kind)
        )
    return text or _("no %(books)s", books=words.books)


def first_meld_label(rules: RuleSet, first_meld: Mapping[str, int]) -> str:
    """The round form's tick for a team whose first meld held the books the round asks
    for: "First meld held 1 clean and 1 dirty books". The warning that asks for the tick
    names it so, word for word."""
    return _("First meld held %(books)s", books=_describe_books(rules, first_meld))


def check_round(
    rules: RuleSet,
    entries: Sequence[TeamRound],
    round_number: int,
    *,
    team_names: Sequence[str] | None = None,
    players: int | None = None,
) -> list[Problem]:
    """Everything wrong or odd about a round's entries, for the person at the table.

    Errors block the save: two teams out, a points total no cards can make,
    negative or unknown values, going out concealed or melding black 3s on
    going out by a team that did not go out. Warnings ask for a second look:
    going out without the books, fewer melded points than the books hold,
    books with no melded points, a first meld without the books it must hold,
    and (given ``players``, when the rules say how the deal goes) more
    points, 3s or books than the deck holds. A team with an error gets no
    warnings, which would only repeat the mistake.
    """
    check_round_number(round_number)
    names = list(team_names or []) + [
        _("Team %(number)s", number=i + 1) for i in range(len(team_names or []), len(entries))
    ]
    problems: list[Problem] = []
    kept = {entry.paper_score is not None for entry in entries}
    if len(kept) > 1:
        problems.append(
            Problem(
                "error",
                None,
                _("A round kept as its scores alone has a score for every team and nothing else."),
                "paper_score",
            )
        )
    out = [i for i, entry in enumerate(entries) if entry.went_out is True]
    if len(out) > 1:
        teams = join([names[i] for i in out])
        problems.append(
            Problem(
                "error",
                None,
                _("Only one team can go out in a round; %(teams)s are both marked as going out.", teams=teams)
                if len(out) == 2
                else _(
                    "Only one team can go out in a round; %(teams)s are all marked as going out.", teams=teams
                ),
                "went_out",
            )
        )
    needed = books_to_go_out(rules, round_number)
    when = isinstance(rules.books_to_go_out, tuple)  # the books needed change by round
    first_meld = first_meld_books(rules, round_number)
    g = _smallest_sums(tuple(rules.card_values.values()))[0]
    for team, entry in enumerate(entries):
        name = names[team]
        errors = [
            # Translators: a team's name and what is wrong with its entries
            Problem("error", team, _("%(team)s: %(problem)s", team=name, problem=message), where)
            for where, message in entry_problems(rules, entry)
        ]
        for where, label in ((f.name, f.log) for f in entry_fields(rules) if f.kind == "points"):
            points = getattr(entry, where)
            if any(e.field == where for e in errors) or can_make_points(rules, points):
                continue
            hint = (
                _("every card is worth a multiple of %(g)s", g=g)
                if g > 1 and points % g
                else _("no set of cards adds up to that")
            )
            errors.append(
                Problem(
                    "error",
                    team,
                    _(
                        "%(team)s: %(points)s points %(label)s can’t be right — %(hint)s. Check for a typo.",
                        team=name,
                        points=points,
                        label=label,
                        hint=hint,
                    ),
                    where,
                )
            )
        if not errors and entry.went_out_concealed and not entry.went_out:
            errors.append(
                Problem(
                    "error",
                    team,
                    _("%(team)s went out concealed, but is not marked as going out.", team=name),
                    "went_out",
                )
            )
        if not errors and entry.black_threes_out and not entry.went_out:
            errors.append(
                Problem(
                    "error",
                    team,
                    _(
                        "%(team)s did not go out: only the team going out melds black 3s as it goes out.",
                        team=name,
                    ),
                    "black_threes_out",
                )
            )
        if not errors and entry.packet_not_taken and entry.went_out and in_use(rules.packet_not_taken):
            errors.append(
                Problem(
                    "error",
                    team,
                    _(
                        "%(team)s went out, but never took the %(packet)s: a team takes it before it "
                        "can go out.",
                        team=name,
                        packet=rules.say.packet,
                    ),
                    "packet_not_taken",
                )
            )
        problems += errors
        if errors:
            continue
        if entry.went_out and books_short(entry.books, needed):
            problems.append(
                Problem(
                    "warning",
                    team,
                    _(
                        "%(team)s went out with %(books)s, but going out in round %(round)s "
                        "takes %(needed)s.",
                        team=name,
                        books=_describe_books(rules, entry.books),
                        round=round_number,
                        needed=_describe_books(rules, needed),
                    )
                    if when
                    else _(
                        "%(team)s went out with %(books)s, but going out takes %(needed)s.",
                        team=name,
                        books=_describe_books(rules, entry.books),
                        needed=_describe_books(rules, needed),
                    ),
                    "went_out",
                )
            )
        least = least_meld_points(rules, entry.books)
        if least and entry.melded_points == 0:
            problems.append(
                Problem(
                    "warning",
                    team,
                    _(
                        "%(team)s has %(books)s but no melded points. %(Books)s count their cards "
                        "in the melded points too.",
                        team=name,
                        books=rules.say.books,
                        Books=capital(rules.say.books),
                    ),
                    "melded_points",
                )
            )
        elif entry.melded_points < least:
            problems.append(
                Problem(
                    "warning",
                    team,
                    ngettext(
                        "%(team)s melded %(melded)s points, but %(books)s holds at least %(least)s "
                        "points of cards.",
                        "%(team)s melded %(melded)s points, but %(books)s hold at least %(least)s "
                        "points of cards.",
                        sum(entry.books.values()),
                        team=name,
                        melded=entry.melded_points,
                        books=_describe_books(rules, entry.books),
                        least=least,
                    ),
                    "melded_points",
                )
            )
        if first_meld and has_melded(entry, rules):
            problems += _first_meld_problems(rules, entry, team, name, first_meld)
    if not any(p.level == "error" for p in problems):
        problems += _deck_problems(rules, entries, names, players)
    return problems


def _first_meld_problems(rules, entry, team, name, first_meld):
    """A team that melded with fewer books than its first meld had to hold did not
    meet it (books stay books); one that has them says so with one tick."""
    required = _describe_books(rules, first_meld)
    if books_short(entry.books, first_meld):
        return [
            Problem(
                "warning",
                team,
                _(
                    "%(team)s melded with %(books)s, but the first meld must hold %(required)s.",
                    team=name,
                    books=_describe_books(rules, entry.books),
                    required=required,
                ),
                "first_meld_books",
            )
        ]
    if not entry.first_meld_books:
        return [
            Problem(
                "warning",
                team,
                _(
                    "Did %(team)s’s first meld hold %(required)s? Tick “%(label)s” if it did.",
                    team=name,
                    required=required,
                    label=first_meld_label(rules, first_meld),
                ),
                "first_meld_books",
            )
        ]
    return []


def _deck_problems(rules, entries, names, players):
    """More than the deck holds: every card is in one place when a round ends, so what
    all teams report together can be no more than the deck (``deal.deck``)."""
    cards = deck(rules, players)
    if cards is None:
        return []
    problems = []
    points = cards.points(rules)
    where = ngettext("%(num)s deck", "%(num)s decks", cards.decks)
    for team, entry in enumerate(entries):
        held = entry.melded_points + entry.unplayed_points
        if held > points:
            field = "unplayed_points" if entry.unplayed_points > entry.melded_points else "melded_points"
            problems.append(
                Problem(
                    "warning",
                    team,
                    _(
                        "%(team)s: %(melded)s points melded and %(left)s left is more than the whole deck "
                        "holds (%(points)s points of cards in %(decks)s).",
                        team=names[team],
                        melded=number(entry.melded_points),
                        left=number(entry.unplayed_points),
                        points=number(points),
                        decks=where,
                    ),
                    field,
                )
            )
    if not problems and sum(e.melded_points + e.unplayed_points for e in entries) > points:
        problems.append(
            Problem(
                "warning",
                None,
                _(
                    "The teams melded and hold %(held)s points of cards together, more than the whole "
                    "deck holds (%(points)s in %(decks)s).",
                    held=number(sum(e.melded_points + e.unplayed_points for e in entries)),
                    points=number(points),
                    decks=where,
                ),
                "melded_points",
            )
        )
    red = sum(e.red_threes + e.red_threes_melded + BOOK_SIZE * e.red_three_books for e in entries)
    black = sum(e.black_threes + e.black_threes_out + BOOK_SIZE * e.black_three_books for e in entries)
    for colour, count, most in (("red", red, cards.red_threes), ("black", black, cards.black_threes)):
        if count > most:
            said = {"count": count, "decks": where, "most": most}
            problems.append(
                Problem(
                    "warning",
                    None,
                    _("The teams report %(count)s red 3s in all, but %(decks)s hold %(most)s.", **said)
                    if colour == "red"
                    else _(
                        "The teams report %(count)s black 3s in all, but %(decks)s hold %(most)s.", **said
                    ),
                    f"{colour}_threes",
                )
            )
    books = sum(sum(e.books.values()) for e in entries)
    if books > cards.books():
        problems.append(
            Problem(
                "warning",
                None,
                _(
                    "The teams report %(count)s %(books)s in all, but the %(cards)s cards of %(decks)s make "
                    "at most %(most)s.",
                    count=books,
                    books=rules.say.count(books),
                    cards=number(cards.cards),
                    decks=where,
                    most=cards.books(),
                ),
                None,
            )
        )
    return problems
