"""The written rule sets, as presets, with the variants some of them carry.

The five Hand and Foot sets, classic Canasta, and Samba and Bolivia, its
three-pack cousins (docs/decisions.md cites the rule books their values come
from); Buraco (Brazil) and Burraco (FIBUR), with a tournament's variant
(docs/house-rules.md names their sources). Where a written set is silent
about books to go out, the tablet game takes the last column's requirement
(2 clean + 2 dirty); docs/decisions.md says why. 0 means "this rule set does not use it".

A variant (two players, 1 + 1 books to go out) is an ordinary rule set of
its own in ``RULESETS``, under its own key and name; ``VARIANTS`` groups them
under their preset so that a game's start offers them together.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .language import N_, _
from .rules import RuleSet

_STANDARD_VALUES = {
    "joker": 50,
    "2": 20,
    "A": 20,
    "K": 10,
    "Q": 10,
    "J": 10,
    "10": 10,
    "9": 10,
    "8": 10,
    "7": 5,
    "6": 5,
    "5": 5,
    "4": 5,
}
_LOW_NINES_VALUES = {**_STANDARD_VALUES, "9": 5, "8": 5}  # Roth and forfeits: 8s and 9s are 5
_BOOKS = {"clean": 500, "dirty": 300}
_ELEVEN = {"hand": 11, "foot": 11}

_FRIENDS_FAMILY = RuleSet(
    name=N_("Friends & Family online edition"),
    card_values=_STANDARD_VALUES,
    black_three=-5,
    # "if the other player/team goes out and you have a Red 3 in your hand or foot"
    red_three={"went_out": 0, "other_went_out": -500, "nobody_out": 0},
    books=_BOOKS,
    going_out=100,
    meld_minimum={"by_round": [50, 90, 120, 150]},
    # four players; the two-player and 1 + 1 requirements are its variants
    books_to_go_out={"clean": 4, "dirty": 5},
    end={"rounds": 4},
    # "three to five decks … depending on the number of players and canastas":
    # the most, so that the deck's bounds never warn about a legal round
    deal={"decks": 5, **_ELEVEN},
)

# Samba: Canasta with three packs, sequence canastas ("sambas") and two canastas to go
# out; where its rules are silent, Canasta's stand (docs/decisions.md)
_SAMBA = RuleSet(
    name=N_("Samba"),
    card_values=_STANDARD_VALUES,
    black_three=-5,  # as in Canasta: a black 3 left in hand is a 5-point card against its holder
    red_three=-500,  # as in Canasta: one left in hand when the play ends
    # 100 each, 1,000 for all six (6 × 100 + 400), and as much against a side short of two canastas
    red_three_melded={"went_out": 100, "other_went_out": 100, "nobody_out": 100, "not_melded": -100},
    red_threes_all={
        "count": 6,
        "bonus": {"went_out": 400, "other_went_out": 400, "nobody_out": 400, "not_melded": -400},
    },
    not_melded_books=2,
    black_three_out=5,  # as in Canasta: black 3s melded going out, 5 each as cards
    books={"clean": 500, "dirty": 300, "samba": 1500},  # a samba ranks as a canasta, its bonus 1,500
    going_out=200,  # no bonus for a concealed hand
    # 15 with a minus score, 50 from 0, 90 from 1,500, 120 from 3,000, 160 from 7,000
    meld_minimum={"by_score": [[-1, 15], [0, 50], [1500, 90], [3000, 120], [7000, 160]]},
    books_to_go_out={"any": 2},  # two canastas: natural, mixed or samba
    end={"score": 10000},
    deal={"decks": 3, "hand": 15, "foot": 0},  # three packs and six jokers, 15 cards each
    words={
        "game": "Samba",
        "book": "canasta",
        "books": "canastas",
        "kinds": {"clean": "natural", "dirty": "mixed", "samba": "samba"},
        "piles": ["hand"],
    },
)

# Buraco as played in Brazil (pagat.com's "Buraco", Wikipédia's "Buraco (jogo de cartas)";
# docs/house-rules.md): canastas of seven, clean 200 and dirty 100, a morto of 11 cards
# per team, −100 for a team that never takes it, 100 for going out with a clean canasta
_BURACO = RuleSet(
    name=N_("Buraco (Brazil)"),
    # pagat.com: joker 20, two 10, ace 15, K–8 10, 7–3 5 (3s are plain cards: counted
    # with the melded points and the points left, not by red_three and black_three)
    card_values={**dict.fromkeys(("K", "Q", "J", "10", "9", "8"), 10), "joker": 20, "2": 10, "A": 15}
    | dict.fromkeys(("7", "6", "5", "4"), 5),
    black_three=0,
    red_three=0,
    # a canasta from ace to ace (14 cards, no wild card) is worth "up to 1,000" (Tribuna de
    # Minas); a family that does not play it sets 0 (and counts one as a clean canasta)
    books={"clean": 200, "dirty": 100, "ace_to_ace": 1000},
    going_out=100,  # the batida, once the morto is taken
    meld_minimum=None,
    books_to_go_out={"clean": 1},  # "só pode-se bater com uma canastra limpa"
    end={"score": 3000},
    tie="play_on",  # both teams past 3,000 alike: another hand is played
    deal={"decks": 2, "hand": 11, "foot": 11},  # two packs and four jokers; the foot is the morto
    packet_not_taken=-100,
    # a morto taken by an indirect batida and not played before the round ends "is punished
    # as if it was not bought" (Buraco 2009's rules, after pagat.com)
    packet_unplayed="not_taken",
    words={
        "game": "Buraco",
        "book": "canasta",
        "books": "canastas",
        "kinds": {"clean": "clean", "dirty": "dirty", "ace_to_ace": "A to A"},
        "piles": ["hand", "morto"],
    },
)

# Burraco as the Federazione Italiana Burraco's Codice di Gara scores it (art. 17; docs/house-rules.md)
_BURRACO = RuleSet(
    name=N_("Burraco (FIBUR)"),
    # jolly 30, pinella (2) 20, ace 15, K–8 10, 7–3 5
    card_values={**dict.fromkeys(("K", "Q", "J", "10", "9", "8"), 10), "joker": 30, "2": 20, "A": 15}
    | dict.fromkeys(("7", "6", "5", "4"), 5),
    black_three=0,
    red_three=0,
    # pulito 200, sporco 100, semipulito 150 (eight cards, seven of them in a clean run)
    books={"clean": 200, "dirty": 100, "semi_clean": 150},
    going_out=100,  # the chiusura, with a pozzetto taken and a burraco
    meld_minimum=None,
    books_to_go_out={"any": 1},  # any burraco; Burraco Internazionale asks a clean one
    end={"score": 2005},  # a casual game's target
    tie="play_on",  # a casual table plays a tie off with another smazzata
    deal={"decks": 2, "hand": 11, "foot": 11},  # the foot is the pozzetto
    packet_not_taken=-100,  # "per un pozzetto non preso"
    packet_unplayed="cards",  # "per un pozzetto preso e non giocato: il valore delle carte"
    words={
        "game": "Burraco",
        "book": "burraco",
        "books": "burracos",
        "kinds": {"clean": "clean", "dirty": "dirty", "semi_clean": "semi-clean"},
        "piles": ["hand", "pozzetto"],
    },
)

RULESETS: dict[str, RuleSet] = {
    "friends-family": _FRIENDS_FAMILY,
    "friends-family-2p": dataclasses.replace(
        _FRIENDS_FAMILY,
        name=N_("Friends & Family online edition, two players"),
        books_to_go_out={"clean": 3, "dirty": 4},
        deal={"decks": 5, "hand": 15, "foot": 15},
    ),
    "friends-family-1-1": dataclasses.replace(
        _FRIENDS_FAMILY,
        name=N_("Friends & Family online edition, 1 + 1 books"),
        books_to_go_out={"clean": 1, "dirty": 1},
    ),
    "partnership": RuleSet(
        name=N_("Partnership rules (22-card cut)"),
        card_values=_STANDARD_VALUES,
        black_three=-5,
        red_three=-100,
        books=_BOOKS,
        going_out=100,
        cut_22=100,
        # no points minimum: the first meld must hold a clean and a dirty book
        meld_minimum=None,
        first_meld_books={"clean": 1, "dirty": 1},
        books_to_go_out={"clean": 3, "dirty": 4},
        end=None,
        deal={"decks": {"per_player": 1, "extra": 1}, **_ELEVEN},  # "number of players plus one deck"
    ),
    "tablet": RuleSet(
        name=N_("Tablet game (5 hands)"),
        card_values=_STANDARD_VALUES,
        black_three=-5,
        red_three=-100,
        books=_BOOKS,
        going_out=200,
        meld_minimum={"by_round": [50, 75, 100, 125, 150]},
        books_to_go_out={"clean": 2, "dirty": 2},
        end={"rounds": 5},
        deal={"decks": 5, **_ELEVEN},
    ),
    "roth": RuleSet(
        name=N_("Roth family house rules (to 10,000)"),
        card_values=_LOW_NINES_VALUES,
        black_three=0,
        red_three=-500,
        books=_BOOKS,
        going_out=100,
        cut_22=100,
        penalty=-100,
        meld_minimum={"by_score": [[0, 50], [2500, 90], [5000, 120], [7500, 150]]},
        books_to_go_out={"clean": 5, "dirty": 4},
        end={"score": 10000},
        deal={"decks": {"per_player": 1, "extra": 0}, **_ELEVEN},  # "one per player"
    ),
    "forfeit": RuleSet(
        name=N_("Five hands with forfeits"),
        card_values=_LOW_NINES_VALUES,
        black_three=-5,
        red_three=-100,
        books=_BOOKS,
        going_out=1000,
        meld_minimum={"by_round": [60, 90, 120, 150, 180]},
        books_to_go_out={"clean": 2, "dirty": 2},
        end={"rounds": 5},
        deal={"decks": None, **_ELEVEN},  # how many decks is not stated
    ),
    # Classic Canasta: values from the rule books cited in docs/decisions.md
    "canasta": RuleSet(
        name=N_("Canasta (classic)"),
        card_values=_STANDARD_VALUES,
        black_three=-5,  # a black 3 left in hand is a 5-point card against its holder
        red_three=-500,  # one left in hand when the play ends (it is laid down at once)
        # 100 each, 800 for all four, and as much against a side that has not melded
        red_three_melded={"went_out": 100, "other_went_out": 100, "nobody_out": 100, "not_melded": -100},
        red_threes_all={
            "count": 4,
            "bonus": {"went_out": 400, "other_went_out": 400, "nobody_out": 400, "not_melded": -400},
        },
        black_three_out=5,  # black 3s melded only when going out: 5 points each as cards
        books={"clean": 500, "dirty": 300},  # natural and mixed canastas
        going_out=100,
        going_out_concealed=100,  # 200 in all
        # the minimum count by the side's score: negative 15, 0 50, 1,500 90, 3,000 120
        meld_minimum={"by_score": [[-1, 15], [0, 50], [1500, 90], [3000, 120]]},
        books_to_go_out={"any": 1},  # a canasta, natural or mixed
        end={"score": 5000},
        deal={"decks": 2, "hand": 11, "foot": 0},  # two packs and four jokers; no foot
        # a canasta is natural or mixed; a player holds one hand
        words={
            "game": "Canasta",
            "book": "canasta",
            "books": "canastas",
            "kinds": {"clean": "natural", "dirty": "mixed"},
            "piles": ["hand"],
        },
    ),
    "samba": _SAMBA,
    # Bolivia: Samba with a canasta of wild cards, an escalera needed to go out, to 15,000
    "bolivia": dataclasses.replace(
        _SAMBA,
        name=N_("Bolivia"),
        # −100 for a black 3 left in hand when anyone (a partner too) goes out; Samba's 5 otherwise
        black_three={"went_out": -100, "other_went_out": -100, "nobody_out": -5},
        # a sequence canasta is an "escalera" (Samba's 1,500); seven wild cards a "bolivia", 2,500
        books={"clean": 500, "dirty": 300, "escalera": 1500, "bolivia": 2500},
        # the minimum stays 150 from 7,000 up
        meld_minimum={"by_score": [[-1, 15], [0, 50], [1500, 90], [3000, 120], [7000, 150]]},
        books_to_go_out={"escalera": 1, "any": 2},  # two canastas, one of them an escalera
        end={"score": 15000},
        words={
            "game": "Bolivia",
            "book": "canasta",
            "books": "canastas",
            "kinds": {"clean": "natural", "dirty": "mixed", "escalera": "escalera", "bolivia": "bolivia"},
            "piles": ["hand"],
        },
    ),
    "buraco": _BURACO,
    "burraco": _BURRACO,
    # a tournament's round (turno) is a fixed number of hands: 3 (or 4, or 2) smazzate
    "burraco-torneo": dataclasses.replace(
        # a tournament turn's tie is a draw (its victory points are shared)
        _BURRACO,
        name=N_("Burraco (FIBUR), tournament of 3 hands"),
        end={"rounds": 3},
        tie="draw",
        victory_points="fibur",  # FIBUR's table for turns of 3 hands, beside the score
    ),
}


@dataclass(frozen=True)
class Variant:
    """One way to play a preset, chosen when a game starts."""

    key: str  # its own rule set's key in RULESETS
    label: str  # how the game's start names it


#: preset key -> its variants, the preset itself first
VARIANTS: dict[str, tuple[Variant, ...]] = {
    "friends-family": (
        Variant("friends-family", N_("Four players: 4 clean + 5 dirty books")),
        Variant("friends-family-2p", N_("Two players: 3 clean + 4 dirty books, 15 cards")),
        Variant("friends-family-1-1", N_("1 clean + 1 dirty book to go out")),
    ),
    "burraco": (
        Variant("burraco", N_("A casual game: to 2,005")),
        Variant("burraco-torneo", N_("A tournament's round: 3 hands")),
    ),
}


def variant_of(key: str) -> str | None:
    """The preset whose variant this rule set key is (the preset's own key included), or None."""
    return next((preset for preset, variants in VARIANTS.items() if key in {v.key for v in variants}), None)


#: the written rule sets' names, in English as they are kept (a game keeps its rules' name)
PRESET_NAMES = frozenset(rules.name for rules in RULESETS.values())


def title(name: str) -> str:
    """A rule set's name as the reader reads it: a written rule set's in their language
    (its name is the app's words), a family's own as they typed it."""
    return _(name) if name in PRESET_NAMES else name
