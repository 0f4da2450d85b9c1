"""What the rules ask of a round: its going-out bonus, books to go out, meld minimums,
the books a first meld must hold."""

from __future__ import annotations

from collections.abc import Mapping

from .rules import RuleSet
from .values import ANY_BOOK, check_round_number, per_round, whole


def going_out_bonus(rules: RuleSet, round_number: int) -> int:
    """The going-out bonus in a round (a per-round list's last value repeats)."""
    check_round_number(round_number)
    if isinstance(rules.going_out, tuple):
        return per_round(rules.going_out, round_number)
    return rules.going_out


def _round_books(needed, round_number: int) -> dict[str, int] | None:
    check_round_number(round_number)
    if isinstance(needed, tuple):
        needed = per_round(needed, round_number)
    return None if needed is None else dict(needed)


def books_to_go_out(rules: RuleSet, round_number: int) -> dict[str, int] | None:
    """The books a team needs before it may go out in a round, or None."""
    return _round_books(rules.books_to_go_out, round_number)


def first_meld_books(rules: RuleSet, round_number: int) -> dict[str, int] | None:
    """The books a team's first meld must hold in a round, or None (no such requirement)."""
    needed = _round_books(rules.first_meld_books, round_number)
    return needed if needed and any(needed.values()) else None


#: kinds of book that hold no wild card, and so are clean where a clean one is asked: an
#: ace-to-ace canastra is clean for Buraco's batida
CLEAN_TOO = ("ace_to_ace",)


def books_short(books: Mapping[str, int], needed: Mapping[str, int] | None) -> bool:
    """Whether these books fall short of a requirement (``any`` counts books of every kind,
    ``clean`` the kinds ``CLEAN_TOO`` as well)."""
    if not needed:
        return False

    def held(kind: str) -> int:
        if kind == ANY_BOOK:
            return sum(books.values())
        if kind == "clean":
            return books.get(kind, 0) + sum(books.get(k, 0) for k in CLEAN_TOO)
        return books.get(kind, 0)

    return any(held(kind) < count for kind, count in needed.items())


def meld_minimum(rules: RuleSet, round_number: int, score_before: int) -> int | None:
    """The points a team's first meld must reach, or None when the rules set none.

    ``by_round`` follows the round number (the last value repeats);
    ``by_score`` follows the team's own total before the round, and a total
    below the first threshold gets the first minimum.
    """
    check_round_number(round_number)
    whole(score_before, "score_before", low=-(10**9), high=10**9)
    rule = rules.meld_minimum
    if rule is None:
        return None
    if "by_round" in rule:
        return per_round(rule["by_round"], round_number)
    steps = rule["by_score"]
    minimum = steps[0][1]
    for threshold, value in steps:
        if score_before < threshold:
            break
        minimum = value
    return minimum
