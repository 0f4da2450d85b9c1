"""Field types shared by every form."""

import re

from wtforms import DateField, HiddenField, IntegerField, TimeField
from wtforms.validators import ValidationError
from wtforms.widgets import TextInput

from ..scoring.language import _
from ..typed import whole_number
from . import lengths


class WholeNumberField(IntegerField):
    """A whole number typed on the phone's numeric keypad.

    Rendered as a text input (the macro adds inputmode="numeric") rather than
    type="number", so the browser never blocks the form with its own bubble:
    the server's message appears next to the field, and what was typed stays.
    """

    widget = TextInput()

    def __init__(self, label=None, validators=None, *, minimum=0, maximum=100_000, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.minimum, self.maximum = minimum, maximum
        self.flags.maxlength = lengths.NUMBER  # the input's maxlength

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        if lengths.too_long(valuelist[0], lengths.NUMBER):
            self.data = None
            raise ValueError(lengths.said(lengths.NUMBER))
        try:
            self.data = whole_number(valuelist[0])
        except ValueError:
            self.data = None
            raise ValueError(_("Enter a whole number, like 120.")) from None

    def pre_validate(self, form):
        if self.data is None:
            return
        if self.data < self.minimum:
            raise ValidationError(
                _("Can’t be negative.")
                if self.minimum == 0
                else _("At least %(minimum)s.", minimum=self.minimum)
            )
        if self.data > self.maximum:
            raise ValidationError(_("At most %(maximum)s.", maximum=format(self.maximum, ",")))


class DayField(DateField):
    """A day, as a date picker sends it (2026-11-25), from 0001-01-01 to 9999-12-31.

    Anything else (a time, a zone, 2026-02-30) gets a message saying what to
    type; left empty it is None, and an ``Optional()`` validator lets it be.
    """

    def process_formdata(self, valuelist):
        try:
            _measured(valuelist)
            super().process_formdata(valuelist)
        except ValueError:
            self.data = None
            raise ValueError(_("Enter a day as year-month-day, like 2026-11-25.")) from None


class ClockField(TimeField):
    """A time of day, as a time picker sends it (19:30); empty, None."""

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators, format="%H:%M", **kwargs)

    def process_formdata(self, valuelist):
        try:
            _measured(valuelist)
            super().process_formdata(valuelist)
        except ValueError:
            self.data = None
            raise ValueError(_("Enter a time as hours:minutes, like 19:30.")) from None


def _measured(valuelist):
    """A day's or a time's text longer than a number's is none: refused before strptime
    (whose patterns read it) is given it."""
    if lengths.too_long(" ".join(valuelist or ()), lengths.NUMBER):
        raise ValueError


class SignedNumberField(WholeNumberField):
    """A whole number that may be negative (−100 or -100), or blank (None).

    Typed on the full keyboard (a numeric keypad has no minus key), so the
    ``field`` macro gives it no numeric input mode; a blank one is allowed.
    """

    def __init__(self, label=None, validators=None, **kwargs):
        kwargs.setdefault("minimum", -1_000_000)
        kwargs.setdefault("maximum", 1_000_000)
        super().__init__(label, validators, **kwargs)


class RevisionField(HiddenField):
    """A hidden whole number the page carries back (a revision, an id).

    Anything that is not one (missing, text, past SQLite's integers) reads as
    None, which the services refuse as a stale page: never an error page.
    """

    def process_formdata(self, valuelist):
        text = valuelist[0].strip() if valuelist else ""
        self.data = int(text) if re.fullmatch(r"[0-9]{1,18}", text) else None

    def _value(self):
        return "" if self.data is None else str(self.data)
