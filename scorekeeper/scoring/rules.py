"""Rule sets: the values of a house-rules file, checked once when a rule set is made.

Every value is *points added to the team's score per unit*, so penalties are
negative numbers and the engine only ever multiplies and adds. Each value is
read and checked by ``values.py``; a ``RuleSet`` is the whole file.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..recent import PerObject
from . import values, victory
from .language import _
from .language import language as current_language
from .values import MAX_PLAYERS, whole
from .words import Words, check_words

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
    # the second packet (Buraco's morto, Burraco's pozzetto): points for a team that
    # never took it, and how one taken but never played is counted (values.PACKET_UNPLAYED)
    "packet_not_taken": 0,
    "packet_unplayed": values.PACKET_CARDS,
    # a tie for the lead at the rules' end: "draw" (every rule set before issue 56) or
    # "play_on" (another round, until the tie is broken)
    "tie": values.TIE_DRAW,
    # a tournament turn's victory points from the points difference: None, or "fibur" (its
    # tables for turns of 3 and 4 hands, scoring.victory) (issue 56)
    "victory_points": None,
}
#: The values that score 3s apart from the cards (Hand and Foot's, Canasta's); where none is
#: in use, 3s are cards like any 4 to 7 (Buraco, Burraco), worth ``THREE_VALUE`` each.
THREES_APART = (
    "red_three",
    "black_three",
    "red_three_melded",
    "red_three_book",
    "black_three_book",
    "black_three_out",
)
THREE_VALUE = 5
#: The values that may depend on how the round ended (see ``by_outcome``).
OUTCOME_VALUES = ("red_three", "black_three", "red_three_melded", "red_three_book", "black_three_book")


_SAY = PerObject(64)  # the words per rule set and language, asked for every line


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
    # a team that never took its second packet (the last pile: Buraco's morto): points, like -100
    packet_not_taken: int = 0
    # a packet taken but not played: "cards" (its cards count with the points left) or
    # "not_taken" (counted as never taken)
    packet_unplayed: str = values.PACKET_CARDS
    # a tie for the lead when the end comes (a target reached, the set rounds played):
    # "draw" ends the game tied, "play_on" plays another round until the tie is broken
    tie: str = values.TIE_DRAW
    # victory points beside the score: None, or "fibur" (FIBUR's tables, for a turn of 3 or 4
    # hands: ``scoring.victory``)
    victory_points: str | None = None

    def __post_init__(self) -> None:
        books = values.books(self.books)
        normalised = {
            "name": values.name(self.name),
            "card_values": values.card_values(self.card_values),
            **{name: values.outcome_value(getattr(self, name), name) for name in OUTCOME_VALUES},
            "red_threes_all": values.red_threes_all(self.red_threes_all),
            "not_melded_books": whole(self.not_melded_books, "not_melded_books", low=0, high=99),
            "black_three_out": whole(self.black_three_out, "black_three_out"),
            "books": books,
            "going_out": values.going_out(self.going_out),
            "going_out_concealed": whole(self.going_out_concealed, "going_out_concealed"),
            "cut_22": whole(self.cut_22, "cut_22"),
            "penalty": whole(self.penalty, "penalty"),
            "meld_minimum": values.meld_minimum(self.meld_minimum),
            "first_meld_books": values.books_by_round(self.first_meld_books, books, "first_meld_books"),
            "books_to_go_out": values.books_by_round(self.books_to_go_out, books, "books_to_go_out"),
            "end": values.end(self.end),
            "deal": values.deal(self.deal),
            "words": check_words(self.words, tuple(books)),
            "packet_not_taken": whole(self.packet_not_taken, "packet_not_taken"),
            "packet_unplayed": values.packet_unplayed(self.packet_unplayed),
            "tie": values.tie(self.tie),
            "victory_points": victory.check(self.victory_points, self.end),
        }
        for name, value in normalised.items():
            object.__setattr__(self, name, values.frozen(value))

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    @classmethod
    def from_dict(cls, data: Any) -> RuleSet:
        """Read a house-rules file's parsed JSON; ``ValueError`` names a bad field."""
        if not isinstance(data, Mapping):
            raise ValueError(
                _(
                    "house rules: must be a JSON object with the fields %(fields)s",
                    fields=", ".join(_REQUIRED_FIELDS),
                )
            )
        known = (*_REQUIRED_FIELDS, *_OPTIONAL_FIELDS, *_LATER_FIELDS)
        for key in data:
            if key not in known:
                raise ValueError(
                    _(
                        "%(where)s: not a house-rules field (the fields are %(fields)s)",
                        where=key,
                        fields=", ".join(known),
                    )
                )
        for key in _REQUIRED_FIELDS:
            if key not in data:
                raise ValueError(_("%(where)s: missing", where=key))
        return cls(**data)

    @classmethod
    def from_json(cls, text: str | bytes) -> RuleSet:
        """Read a house-rules file's text."""
        try:
            data = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(_("house rules: not a JSON file (%(error)s)", error=error)) from None
        except RecursionError:  # thousands of nested brackets: no house-rules file looks like that
            raise ValueError(_("house rules: not a house-rules file (nested too deeply)")) from None
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
    def title(self) -> str:
        """Its name as the reader reads it (``presets.title``): a written rule set's in their
        language, a family's own as typed."""
        from .presets import title  # the presets are built on this module

        return title(self.name)

    @property
    def say(self) -> Words:
        """The words these rules use: the file's ``words``, Hand and Foot's for the rest;
        a preset's (or Hand and Foot's) in the reader's language (``words.local``)."""
        language = current_language()
        return _SAY.get(self, lambda: Words.of(self.words, language), language)

    def book_label(self, kind: str) -> str:
        return self.say.book_label(kind)

    @property
    def left_in(self) -> str:
        """Where the points left are counted, in the reader's words: "in hand and foot"; only
        "in hand" where a packet taken but not played counts as never taken (Buraco's morto:
        its cards never count)."""
        say = self.say
        if self.packet_unplayed == values.PACKET_NOT_TAKEN and len(say.piles) > 1:
            return say.hand_in
        return say.left_in

    @property
    def threes_as_cards(self) -> bool:
        """Whether 3s are plain cards worth ``THREE_VALUE`` (no value scores them apart)."""
        return not any(values.in_use(getattr(self, name)) for name in THREES_APART)

    def card_value(self, rank: str) -> int:
        """A rank's points, the 3s' where they are plain cards."""
        return THREE_VALUE if rank == "3" else self.card_values[rank]

    @property
    def ranks(self) -> tuple[str, ...]:
        """The ranks the cards' points count: ``RANKS``, and the 3s where they are cards."""
        return (*values.RANKS, "3") if self.threes_as_cards else values.RANKS

    @property
    def planned_rounds(self) -> int | None:
        """How many rounds the game lasts, when the rules say so."""
        return self.end.get("rounds") if self.end else None

    @property
    def target_score(self) -> int | None:
        return self.end.get("score") if self.end else None
