"""The days of a spreadsheet of past games, as a family writes them (issue 54).

A day with the year first (2026-08-22, 2026/08/22) is read as year, month, day whatever
else the file holds. A day with the year last is read day first (24/12/2019) or month
first (12/24/2019): the file itself says which where one of its days has a number over 12
in either place, and the page asks only where it cannot (every such day could be either,
or the file writes both) and the family has not said. A file of mixed styles (ISO days
beside 24/12/2019) is read whole.
"""

from __future__ import annotations

import datetime

from ..scoring.language import N_, _

#: how the file writes a day with its year last, as the page asks it ("auto": as the file shows)
ORDERS = {
    "auto": N_("As the file shows"),
    "dmy": N_("Day first: 24/12/2019"),
    "mdy": N_("Month first: 12/24/2019"),
}
_EXAMPLES = {"dmy": "24/12/2019", "mdy": "12/24/2019"}
_SEPARATORS = "/."  # besides "-"


def _parts(text):
    """ "24/12/2019" -> ((24, 12, 2019), whether the year is first, whether it is written
    whole), or None: three runs of one to four ASCII digits between "-", "/" or "."; the
    year first when the first has four."""
    for separator in _SEPARATORS:
        text = text.replace(separator, "-")
    parts = text.split("-")
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts):
        return None
    year_first = len(parts[0]) == 4
    return tuple(int(p) for p in parts), year_first, year_first or len(parts[2]) == 4


class DaysAsked(ValueError):
    """The file's days with the year last could be read day first or month first: the
    family is asked which. ``line`` and ``text``: a day that could be either."""

    def __init__(self, message, line, text):
        self.line, self.text = line, text
        super().__init__(message)


class Days:
    """A file's days as its lines are read (``see``), then the order of those written with
    the year last (``order``) and each day read (``day``)."""

    def __init__(self):
        self.day_first = self.month_first = self.either = None  # (line, text): the first of each

    def see(self, line, text):
        """Note a day as written on ``line``: what it says of the file's order."""
        read = _parts(text)
        if read is None or read[1]:
            return
        first, second, _year = read[0]
        if first > 12 >= second:
            self.day_first = self.day_first or (line, text)
        elif second > 12 >= first:
            self.month_first = self.month_first or (line, text)
        elif first != second:
            self.either = self.either or (line, text)

    def order(self, chosen):
        """ "dmy" or "mdy": as ``chosen`` (a key of ``ORDERS``), else as the file shows.

        :raises DaysAsked: the file shows both, or neither and some day could be either.
        """
        if chosen in ("dmy", "mdy"):
            return chosen
        if self.day_first and self.month_first:
            (line, text), (other_line, other) = self.day_first, self.month_first
            raise DaysAsked(
                _(
                    "This file writes its days both day first (line %(line)s: “%(text)s”) and "
                    "month first (line %(other_line)s: “%(other)s”): pick how it writes most of "
                    "them, and the lines written the other way will be named.",
                    line=line,
                    text=text,
                    other_line=other_line,
                    other=other,
                ),
                line,
                text,
            )
        if self.day_first:
            return "dmy"
        if self.month_first:
            return "mdy"
        if self.either:
            line, text = self.either
            raise DaysAsked(
                _(
                    "A day such as “%(text)s” (line %(line)s) can be read day first or month "
                    "first, and no day of this file says which: pick how it writes them.",
                    line=line,
                    text=text,
                ),
                line,
                text,
            )
        return "dmy"  # no day has its year last: the order reads none

    @staticmethod
    def day(text, order):
        """The day ``text`` says, its year first or last (in ``order``).

        :raises ValueError: it is no day of the calendar, or its year is not written whole
            (24/12/19), with how to write one.
        """
        read = _parts(text)
        example = _EXAMPLES[order]
        if read is None:
            raise ValueError(
                _(
                    "“%(text)s” is not a day written like 2019-12-24 or %(example)s",
                    text=text,
                    example=example,
                )
            )
        (a, b, c), year_first, whole = read
        year, month, day = (a, b, c) if year_first else (c, b, a) if order == "dmy" else (c, a, b)
        if not whole:
            raise ValueError(
                _("“%(text)s”: write the year whole, like %(example)s", text=text, example=example)
            )
        try:
            return datetime.date(year, month, day)
        except ValueError:
            if not year_first and month > 12 and day <= 12:
                raise ValueError(
                    _("“%(text)s” is not a day written like %(example)s", text=text, example=example)
                ) from None
            raise ValueError(_("“%(text)s” is not a day of the calendar", text=text)) from None
