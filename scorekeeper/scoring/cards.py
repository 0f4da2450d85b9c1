"""The card-count helper: ranks grouped by value, and counts of cards turned into points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .deal import deck
from .language import N_, _
from .rules import RuleSet
from .values import RANK_ALIASES, whole

# 3 (where 3s are cards) up to K, for naming runs of ranks such as "8–K", "3–7".
_RUN_ORDER = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_RANK_PLURALS = {
    "joker": N_("Jokers"),
    "2": N_("2s"),
    "A": N_("Aces"),
    "K": N_("Kings"),
    "Q": N_("Queens"),
    "J": N_("Jacks"),
}


class Tier(NamedTuple):
    """Ranks worth the same under a rule set; shown as "8–K 10"."""

    label: str
    value: int
    ranks: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.label} {self.value}"


def join(parts: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c"."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0]
    # Translators: the end of a list: "Ann, Bea and Cid" ("Ann, Bea" and "Cid")
    return _("%(items)s and %(last)s", items=", ".join(parts[:-1]), last=parts[-1])


def _tier_label(ranks: Sequence[str]) -> str:
    parts = [_(_RANK_PLURALS[r]) for r in ("joker", "2", "A") if r in ranks]
    run: list[str] = []
    for rank in (*_RUN_ORDER, None):  # None closes the last run
        if rank is not None and rank in ranks:
            run.append(rank)
            continue
        if len(run) == 1:
            rank = run[0]
            # Translators: a rank's cards, for a rank shown as its number: "9s" (the nines)
            parts.append(_("%(rank)ss", rank=rank) if rank not in _RANK_PLURALS else _(_RANK_PLURALS[rank]))
        elif run:
            parts.append(f"{run[0]}–{run[-1]}")
        run = []
    return join(parts)


def value_tiers(rules: RuleSet) -> list[Tier]:
    """The ranks grouped by value, highest value first."""
    by_value: dict[int, list[str]] = {}
    for rank in rules.ranks:  # the 3s too where they are cards (Buraco, Burraco)
        by_value.setdefault(rules.card_value(rank), []).append(rank)
    return [
        Tier(_tier_label(ranks), value, tuple(ranks))
        for value, ranks in sorted(by_value.items(), reverse=True)
    ]


def card_points(rules: RuleSet, counts: Mapping[str, int]) -> int:
    """Points for a count of cards per rank (``{"joker": 1, "K": 3}`` → 80)."""
    total = 0
    for rank, count in counts.items():
        canonical = RANK_ALIASES.get(str(rank).lower())
        if canonical is None and str(rank) == "3" and rules.threes_as_cards:
            canonical = "3"
        if canonical is None:
            raise ValueError(
                _("%(rank)s: not a rank; the ranks are %(ranks)s", rank=rank, ranks=", ".join(rules.ranks))
            )
        total += whole(count, f"{rank}", low=0, high=10_000) * rules.card_value(canonical)
    return total


def tier_limits(rules: RuleSet, players: int | None) -> list[int | None]:
    """The most cards of each value tier (``value_tiers``) the deck holds for this
    many players, for the helper's counters; None where the rules do not say."""
    cards = deck(rules, players)
    return [
        None if cards is None else sum(cards.cards_of(rank) for rank in tier.ranks)
        for tier in value_tiers(rules)
    ]
