"""The deal: what the deck holds for a table, and so the most a round can hold.

A rule set's ``deal`` says how many decks for how many players and how many
cards go in a hand, a knee (Hand, Knee and Foot; most houses deal none) and
a foot. Every card of the deck is, when a round ends,
in exactly one place: melded by one team, in one player's hand or foot, in
the stock or in the discard pile. So whatever teams report together can never
be more than the deck holds: its points (3s have none, unless they are plain cards as in
Buraco and Burraco), its red and
black 3s, its cards for books. Those are the bounds ``checks`` warns past.
They are not the deal's cards (11 in a hand, 11 in a foot): a player who
picks up the discard pile holds more than was dealt, so nothing here or in
``checks`` counts the cards dealt; ``dealt`` only names the piles for the
cheat sheets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from .rules import RuleSet, decks_for
from .values import BOOK_SIZE, RANKS

SUITS = 4
RED_THREES_PER_DECK = BLACK_THREES_PER_DECK = 2


class Deck(NamedTuple):
    """What the deck of a table holds."""

    decks: int
    players: int
    jokers: int  # per deck
    hand: int  # cards dealt to each player's hand
    knee: int  # ... knee (0: no knee)
    foot: int  # ... and foot (0: no foot)

    def cards_of(self, rank: str) -> int:
        """How many cards of a rank (3s are not ranks: see ``red_threes``)."""
        return self.decks * (self.jokers if rank == "joker" else SUITS)

    @property
    def red_threes(self) -> int:
        return self.decks * RED_THREES_PER_DECK

    @property
    def black_threes(self) -> int:
        return self.decks * BLACK_THREES_PER_DECK

    @property
    def cards(self) -> int:
        """The cards that can be melded in books (every rank but the 3s)."""
        return sum(self.cards_of(rank) for rank in RANKS)

    def points(self, rules: RuleSet) -> int:
        """Every card's points under these rules: the most all teams together can
        meld and hold in a round (the 3s too where they are cards: Buraco's two decks, 960)."""
        return sum(self.cards_of(rank) * rules.card_value(rank) for rank in rules.ranks)

    def books(self) -> int:
        """The most books of 7 the deck's cards can make (3s aside)."""
        return self.cards // BOOK_SIZE


def deck(rules: RuleSet, players: int | None) -> Deck | None:
    """The deck these rules deal for this many players, or None when the rules
    (or the caller) do not say."""
    if players is None or not isinstance(rules.deal, Mapping):
        return None
    decks = decks_for(rules, players)
    if decks is None:
        return None
    deal = rules.deal
    return Deck(decks, players, deal["jokers"], deal["hand"], deal.get("knee", 0), deal["foot"])


def dealt(rules: RuleSet) -> tuple[tuple[str, int], ...]:
    """The piles each player is dealt, in the order they are played, each with
    its cards, in the rules' words: ``(("hand", 15), ("knee", 13), ("foot", 11))``;
    a pile dealt no cards is left out, and so is all of it when the rules do not
    say how the deal goes.

    The words' ``piles`` name them: the first the hand, the last the foot (when
    there are two or more), the second the knee (when there are three or more);
    a pile the words do not name is called what Hand, Knee and Foot calls it.
    """
    if not isinstance(rules.deal, Mapping):
        return ()
    names = rules.say.piles
    hand = names[0]
    knee = names[1] if len(names) > 2 else "knee"
    foot = names[-1] if len(names) > 1 else "foot"
    piles = ((hand, rules.deal["hand"]), (knee, rules.deal.get("knee", 0)), (foot, rules.deal["foot"]))
    return tuple((name, cards) for name, cards in piles if cards)
