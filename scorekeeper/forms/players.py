"""Renaming a player."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, ValidationError

from ..names import clean_name, name_problem
from ..scoring.language import _
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
