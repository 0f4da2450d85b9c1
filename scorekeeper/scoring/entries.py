"""What the scorekeeper enters for a team in a round, declared once.

``ENTRY_FIELDS`` is the one declaration of a round's entries: the round
form, the database columns (a test checks the migrations made one for each),
the change log, the JSON and CSV exports, the round screen and the sheets
all read it. Adding an entry is one ``EntryField`` here and one migration
that adds its column; the rule value that prices it is named by ``rule``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, make_dataclass, replace
from types import MappingProxyType
from typing import Any

from ..recent import PerObject
from .language import N_, _, number, words_key
from .rules import RuleSet
from .values import PACKET_NOT_TAKEN, in_use
from .words import Words


@dataclass(frozen=True)
class EntryField:
    """One thing entered per team and round.

    :param kind: ``"points"``, card points as counted (``sign`` says whether
        they count for or against the team); ``"count"``, how many, each worth
        the rule value ``rule``; ``"flag"``, yes or no, worth ``rule`` once
        (no line when ``rule`` is None: a fact the checks read).
    """

    name: str  # the TeamRound attribute, the database column, the JSON and CSV key
    label: str  # the round form's label
    line: str  # the breakdown line on screens and sheets
    log: str  # how the change log names it ("melded 100 → 150")
    kind: str
    rule: str | None = None  # the RuleSet value that prices one (counts and flags)
    sign: int = 1  # points fields: +1 counts for the team, -1 against it
    maximum: int = 99
    help: str = ""
    always: bool = False  # asked even when the rules give it no points
    counted: str | None = None  # the card-count helper's name for it, when it can add it up
    # a flag set by the round's one choice of who went out (and how), not per team
    out_choice: bool = False
    # the RuleSet value that makes the form ask it, when that is not ``rule``
    asked_by: str | None = None

    def said(self, words: Words) -> EntryField:
        """This field with a rule set's words in its texts ("Points left {piles_in}"), in the
        reader's language."""
        return replace(
            self,
            label=words.fill(_(self.label)),
            line=words.fill(_(self.line)),
            log=words.fill(_(self.log)),
            help=words.fill(_(self.help)) if self.help else "",
        )


ENTRY_FIELDS: tuple[EntryField, ...] = (
    EntryField(
        "melded_points",
        N_("Points melded"),
        N_("Melded"),
        N_("melded"),
        "points",
        maximum=100_000,
        help=N_("Cards only, no bonuses."),
        always=True,
        counted=N_("melded"),
    ),
    EntryField(
        "unplayed_points",
        # Translators: {piles_in} is where the cards are left, with its “in” (“in hand and
        # foot”, “na mão e no pé”): keep it
        N_("Points left {piles_in}"),
        # Translators: {piles_in} is where the cards are left, with its “in”: keep it
        N_("Left {piles_in}"),
        # Translators: {piles_in} is where the cards are left, with its “in”: keep it
        N_("left {piles_in}"),
        "points",
        sign=-1,
        maximum=100_000,
        help=N_("Not counting 3s."),
        always=True,
        counted="left",
    ),
    EntryField(
        "red_threes", N_("Red 3s caught"), N_("Red 3s caught"), N_("red 3s"), "count", rule="red_three"
    ),
    EntryField(
        "black_threes",
        N_("Black 3s caught"),
        N_("Black 3s caught"),
        N_("black 3s"),
        "count",
        rule="black_three",
    ),
    EntryField(
        "red_threes_melded",
        N_("Red 3s laid down"),
        N_("Red 3s laid down"),
        N_("red 3s laid down"),
        "count",
        rule="red_three_melded",
    ),
    EntryField(
        "red_three_books",
        # Translators: {Books} is the game’s word for books, capitalised (“Canastas”): keep it
        N_("{Books} of red 3s"),
        N_("{Books} of red 3s"),
        # Translators: {books} is the game’s word for books (“canastas”): keep it
        N_("{books} of red 3s"),
        "count",
        rule="red_three_book",
        maximum=9,
        help=N_("Seven red 3s; they are not counted again as red 3s laid down."),
    ),
    EntryField(
        "black_three_books",
        # Translators: {Books} is the game’s word for books, capitalised (“Canastas”): keep it
        N_("{Books} of black 3s"),
        N_("{Books} of black 3s"),
        # Translators: {books} is the game’s word for books (“canastas”): keep it
        N_("{books} of black 3s"),
        "count",
        rule="black_three_book",
        maximum=9,
        help=N_("Seven black 3s; they are not counted again as black 3s melded going out."),
    ),
    EntryField(
        "black_threes_out",
        N_("Black 3s melded going out"),
        N_("Black 3s melded going out"),
        N_("black 3s melded going out"),
        "count",
        rule="black_three_out",
        help=N_("Only the team that went out melds them."),
    ),
    EntryField(
        "went_out",
        N_("Went out"),
        N_("Went out"),
        N_("went out"),
        "flag",
        rule="going_out",
        maximum=1,
        always=True,
        out_choice=True,
    ),
    EntryField(
        "went_out_concealed",
        N_("Went out concealed"),
        N_("Went out concealed"),
        N_("went out concealed"),
        "flag",
        rule="going_out_concealed",
        maximum=1,
        out_choice=True,
    ),
    EntryField(
        "cuts",
        N_("Players who cut exactly 22"),
        N_("22-card cuts"),
        N_("22-card cuts"),
        "count",
        rule="cut_22",
        maximum=3,
    ),
    EntryField(N_("penalties"), N_("Penalties"), N_("Penalties"), N_("penalties"), "count", rule="penalty"),
    EntryField(
        "first_meld_books",
        # Translators: {books} is the game’s word for books (“canastas”): keep it
        N_("First meld held the {books}"),
        N_("First meld held the {books}"),
        # Translators: {books} is the game’s word for books (“canastas”): keep it
        N_("first meld's {books} ticked"),
        "flag",
        maximum=1,
        asked_by="first_meld_books",
    ),
    # the second packet (the last pile: Buraco's morto, Burraco's pozzetto) never taken
    EntryField(
        "packet_not_taken",
        N_("Never took the {packet}"),
        N_("{Packet} not taken"),
        N_("{packet} not taken"),
        "flag",
        rule="packet_not_taken",
        maximum=1,
        help=N_("Taken but not played: count its cards in the points left."),
    ),
)
ENTRY = {f.name: f for f in ENTRY_FIELDS}
#: the packet's help where one taken but not played counts as never taken (``packet_unplayed``)
_PACKET_UNPLAYED_HELP = N_("Taken but not played counts as not taken too.")


def entry_fields(rules: RuleSet) -> tuple[EntryField, ...]:
    """``ENTRY_FIELDS`` in these rules' words: what the screens, sheets and change log show.

    Worded once per rule set object: every team of every round asks, and wording
    them was a tenth of a sheet's and of a save's time.
    """
    return _SAID.get(rules, lambda: tuple(_said(f, rules) for f in ENTRY_FIELDS), words_key())


# Buraco's and Burraco's 3s are cards like any 4 to 7, counted with the points left
_THREES_AS_CARDS_HELP = N_("3s counted as cards, 5 each.")


def _said(entry: EntryField, rules: RuleSet) -> EntryField:
    said = entry.said(rules.say)
    if entry.name == "packet_not_taken" and rules.packet_unplayed == PACKET_NOT_TAKEN:
        return replace(said, help=rules.say.fill(_(_PACKET_UNPLAYED_HELP)))
    if entry.name == "unplayed_points":
        # Buraco's morto taken but not played counts as never taken: its cards never count,
        # the points left are the hand's alone ("in hand", "na mão": ``RuleSet.left_in``)
        if rules.left_in != rules.say.left_in:
            label, line, log = (
                _(text).replace("{piles_in}", rules.left_in) for text in (entry.label, entry.line, entry.log)
            )
            said = replace(said, label=label, line=line, log=log)
        if rules.threes_as_cards:
            said = replace(said, help=_(_THREES_AS_CARDS_HELP))
    return said


_SAID = PerObject(64)  # house rules read again are new objects: a few are kept


#: the most books of one kind a team can report in a round
MAX_BOOKS = 99
#: the largest round score, either way, an old sheet that kept only scores may give
MAX_PAPER_SCORE = 1_000_000
#: the one breakdown line of a round kept as its score alone
PAPER_LINE = N_("Score on the paper sheet")


def asked(rules: RuleSet, entry: EntryField) -> bool:
    """Whether the round form asks for this entry under these rules."""
    name = entry.asked_by or entry.rule
    if entry.always or name is None:
        return True
    value = getattr(rules, name)
    # a requirement (the first meld's books) is in use when it asks for any book
    if name == "first_meld_books":
        return value is not None and any(v for counts in _per_round(value) for v in counts.values())
    return in_use(value)


def _per_round(value):
    return value if isinstance(value, tuple) else (value,)


def has_melded(entry: TeamRound, rules: RuleSet | None = None) -> bool:
    """Whether the team laid down any meld this round (red 3s laid down are not melds).

    Given the rules, an entry for an option they leave off (a book of 3s where
    the house has none) is no meld: an option left off changes nothing.
    """
    return bool(
        entry.melded_points
        or any(entry.books.values())
        or any(
            getattr(entry, field.name) and (rules is None or in_use(getattr(rules, field.rule)))
            for field in (ENTRY["red_three_books"], ENTRY["black_three_books"], ENTRY["black_threes_out"])
        )
    )


class _TeamRoundBase:
    """What every TeamRound can do; its fields come from ``ENTRY_FIELDS``."""

    def __post_init__(self) -> None:
        if isinstance(self.books, Mapping):
            object.__setattr__(self, "books", MappingProxyType(dict(self.books)))

    def __hash__(self) -> int:
        books = tuple(sorted(self.books.items())) if isinstance(self.books, Mapping) else None
        return hash((books, *(getattr(self, f.name) for f in ENTRY_FIELDS), self.paper_score))

    @property
    def scores_only(self) -> bool:
        """Kept as its score alone (an old paper sheet's round): nothing else is known."""
        return self.paper_score is not None

    def to_dict(self) -> dict[str, Any]:
        if self.scores_only:  # nothing else is known of it
            return {"paper_score": self.paper_score}
        return {"books": dict(self.books), **{f.name: getattr(self, f.name) for f in ENTRY_FIELDS}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TeamRound:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


#: One team's entries for one round, as the scorekeeper typed them: ``books``
#: (a count per kind of book) and one attribute per entry field. Values are
#: kept as given, even wrong ones, so that ``check_round`` can say what is
#: wrong; ``score_team_round`` refuses them. A round from an old paper sheet that
#: kept only each round's score has ``paper_score`` (the score as the sheet has
#: it) and nothing else; every other entry has None there.
TeamRound = make_dataclass(
    "TeamRound",
    [("books", Mapping[str, int], field(default_factory=dict))]
    + [
        (f.name, bool if f.kind == "flag" else int, field(default=False if f.kind == "flag" else 0))
        for f in ENTRY_FIELDS
    ]
    + [("paper_score", int | None, field(default=None))],
    bases=(_TeamRoundBase,),
    frozen=True,
    kw_only=True,
    namespace={"__hash__": _TeamRoundBase.__hash__, "__doc__": _TeamRoundBase.__doc__},
)
TeamRound.__module__ = __name__


def entry_problems(rules: RuleSet, entry: TeamRound) -> list[tuple[str, str]]:
    """(field, message) for every value that cannot be scored at all."""
    problems = []
    if entry.paper_score is not None:
        return _paper_problems(entry)
    if not isinstance(entry.books, Mapping):
        return [("books", _("Books must be a count for each kind of book."))]
    for kind, count in entry.books.items():
        where = f"books.{kind}"
        if kind not in rules.books:
            problems.append((where, _("These rules have no “%(kind)s” books.", kind=kind)))
        elif isinstance(count, bool) or not isinstance(count, int):
            problems.append((where, _("%(label)s must be a whole number.", label=rules.book_label(kind))))
        elif count < 0:
            problems.append((where, _("%(label)s can’t be negative.", label=rules.book_label(kind))))
    for declared in entry_fields(rules):
        value = getattr(entry, declared.name)
        if declared.kind == "flag":
            if not isinstance(value, bool):
                problems.append((declared.name, _("%(label)s must be yes or no.", label=declared.label)))
        elif isinstance(value, bool) or not isinstance(value, int):
            problems.append((declared.name, _("%(label)s must be a whole number.", label=declared.label)))
        elif value < 0:
            problems.append((declared.name, _("%(label)s can’t be negative.", label=declared.label)))
    return problems


def _paper_problems(entry: TeamRound) -> list[tuple[str, str]]:
    """What is wrong with a round kept as its score alone: a score that is no whole
    number or beyond any round's, or anything else entered beside it."""
    score = entry.paper_score
    if isinstance(score, bool) or not isinstance(score, int):
        return [("paper_score", _("The round's score must be a whole number."))]
    if abs(score) > MAX_PAPER_SCORE:
        return [
            (
                "paper_score",
                _("A round's score is at most %(most)s either way.", most=number(MAX_PAPER_SCORE)),
            )
        ]
    others = (not isinstance(entry.books, Mapping) or any(entry.books.values())) or any(
        getattr(entry, f.name) for f in ENTRY_FIELDS
    )
    if others:
        return [("paper_score", _("A round kept as its score alone has nothing else entered."))]
    return []
