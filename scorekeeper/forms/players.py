"""Renaming a player; their colour."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired, ValidationError

from ..names import clean_name, name_problem
from ..scoring.language import _
from ..services import colours
from . import lengths
from .fields import RevisionField
from .lengths import Fits


class RenameForm(FlaskForm):
    name = StringField(_l("New name"), validators=[Fits(lengths.NAME), InputRequired(_l("Type a name."))])
    revision = RevisionField()  # the player as the page showed them

    def validate_name(self, field):
        problem = name_problem(clean_name(field.data), _=_)
        if problem:
            raise ValidationError(problem)


class ColourForm(FlaskForm):
    """A player's colour, one of the palette's (a radio each, with its name in words)."""

    colour = RadioField(
        _l("Their colour"),
        choices=[SelectChoice(c.key, c.name) for c in colours.PALETTE],
        validators=[InputRequired(_l("Choose one of the colours."))],
        validate_choice=False,  # refused below in the words a family reads
    )

    def validate_colour(self, field):
        if colours.colour(field.data) is None:
            raise ValidationError(_("Choose one of the colours."))
