"""Renaming a player."""

from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import InputRequired, ValidationError

from ..names import clean_name, name_problem
from .fields import RevisionField


class RenameForm(FlaskForm):
    name = StringField("New name", validators=[InputRequired("Type a name.")])
    revision = RevisionField()  # the player as the page showed them

    def validate_name(self, field):
        problem = name_problem(clean_name(field.data))
        if problem:
            raise ValidationError(problem)
