"""One source for a score sheet's layout (issue 55): what every line of the sheet is, in
the paper's order, for a rule set.

A team's column of a round reads, top to bottom: a box for the meld minimum (rules that
set it by the team's score), the books of each kind, each entry the rules score (points
melded, left in hand and foot, the 3s, going out…), a bonus worked out from another line,
then the round score and the running total the family adds up. The blank sheet prints
these lines (``blank_sheets``, ``templates/sheets/blank.html``), the typing page asks for
the ones a person types, in this order (``forms.paper``), and a photo's reader will cut
them out: none of them lists the lines again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import scoring
from ..scoring.language import _

#: the names of the lines that are not an entry or a book: what the family writes there
MELD_MINIMUM = "meld_minimum"  # the meld minimum for the team's score, a note to play by
ROUND_SCORE = "sheet_score"  # the round's score as the family added it up
TOTAL = "sheet_total"  # the running total as the family added it up

#: what a line holds: the books of a kind; an entry of the engine (its ``kind``: points,
#: count or flag); a bonus worked out from another line (nothing typed); a note to play
#: by; the family's own sums (compared with the engine's, never saved)
KINDS = ("books", "points", "count", "flag", "bonus", "note", "sum")


@dataclass(frozen=True)
class Line:
    """One line of a sheet: a box for it per team and round."""

    name: str | None  # ``book_<kind>``, an entry's name, or one of the names above; None: a bonus
    label: str  # as printed, in the reader's language and the rule set's words
    per: int | None  # points per unit printed beside the label; None: written as counted
    kind: str  # one of KINDS

    @property
    def scored(self):
        """Whether the engine scores the round from it (the lines between the note and the sums)."""
        return self.kind not in ("note", "sum")

    @property
    def typed(self):
        """Whether the typing page asks for it (a bonus and a note are not typed)."""
        return self.kind not in ("note", "bonus")


def sheet_lines(rules):
    """Every line of the rule set's sheet, in the paper's order (a ``Line`` each)."""
    lines = []
    if rules.meld_minimum and "by_score" in rules.meld_minimum:
        lines.append(Line(MELD_MINIMUM, _("Meld minimum"), None, "note"))
    lines += [
        Line(f"book_{kind}", rules.book_label(kind), value, "books") for kind, value in rules.books.items()
    ]
    for entry in scoring.entry_fields(rules):
        if scoring.asked(rules, entry):
            value = getattr(rules, entry.rule) if entry.kind == "count" else None
            # a value that depends on who went out is on the cheat sheet
            lines.append(Line(entry.name, entry.line, value if isinstance(value, int) else None, entry.kind))
        if entry.name == "red_threes_melded" and rules.red_threes_all:
            bonus = rules.red_threes_all["bonus"]
            lines.append(
                Line(
                    None,
                    _("All %(count)s red 3s", count=rules.red_threes_all["count"]),
                    bonus if isinstance(bonus, int) else None,
                    "bonus",
                )
            )
    lines.append(Line(ROUND_SCORE, _("Round score"), None, "sum"))
    lines.append(Line(TOTAL, _("Total"), None, "sum"))
    return lines


def scored_lines(rules):
    """The lines the engine scores a round from, in order (books, entries, bonuses)."""
    return [line for line in sheet_lines(rules) if line.scored]


def typed_lines(rules):
    """The lines the typing page asks for, in order: what the engine scores, then the
    family's round score and total."""
    return [line for line in sheet_lines(rules) if line.typed]
