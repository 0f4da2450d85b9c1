"""Starting an evening: who is here, the rule set, how tables are made; then the
proposal (who sits where) carried in the form until every table starts."""

import json

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    FieldList,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    StringField,
)
from wtforms.validators import NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from ..names import clean_name, name_key, name_problem
from ..scoring.language import _
from ..services import seating
from ..services.evening_tables import MODES
from . import lengths
from .lengths import Fits

NEW_NAMES = seating.MAX_PEOPLE  # blank fields for people not known yet (eight shown, the rest folded)


class CheckboxList(SelectMultipleField):
    """Several choices, each a checkbox (``_forms.html``'s ``choice_list`` shows them)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class EveningForm(FlaskForm):
    present = CheckboxList(_l("Players the app knows: tick those here"), choices=[], validate_choice=False)
    newcomers = FieldList(
        StringField(_l("New name"), validators=[Fits(lengths.NAME), Optional()]),
        min_entries=NEW_NAMES,
        max_entries=NEW_NAMES,
    )
    rules_key = RadioField(_l("Rule set"), choices=[])
    mode = RadioField(
        _l("From game to game"),
        choices=[SelectChoice(key, _l(label)) for key, label in MODES.items()],
        default="rotate",
    )
    team_size = RadioField(
        _l("Players in a team"),
        choices=[
            SelectChoice("2", _l("Two (partners)")),
            SelectChoice("1", _l("One (each for themselves)")),
            SelectChoice("3", _l("Three")),
        ],
        default="2",
    )
    tables = IntegerField(
        _l("Tables"),
        validators=[
            Optional(),
            NumberRange(1, seating.MAX_TABLES, _l("Choose 1 to %(most)s tables.", most=seating.MAX_TABLES)),
        ],
        description=_l("Leave empty for the usual rule, below."),
    )
    locked = HiddenField(default="[]")  # pairs always together: JSON [[name, name], ...]
    seats = HiddenField(default="")  # the proposal shown: JSON [table [team [name, ...]]]
    seed = HiddenField(default="0")
    seen = HiddenField(default="0")  # the games of the night the page knew of (a second Start is refused)
    # Translators: "Swap [name] with [name]": two lists of the players here
    swap_a = SelectField(_l("Swap"), choices=[], validate_choice=False)
    swap_b = SelectField(_l("with"), choices=[], validate_choice=False)
    keep = CheckboxList(_l("Keep as they are"), choices=[], validate_choice=False)

    def names(self):
        """Everyone here, known players first, in the order shown; each once."""
        found, seen = [], set()
        for name in [*(self.present.data or []), *(f.data for f in self.newcomers)]:
            name = clean_name(name or "")
            if name and name_key(name) not in seen:
                seen.add(name_key(name))
                found.append(name)
        return found

    def validate_newcomers(self, field):
        keys = {name_key(clean_name(n)) for n in self.present.data or []}
        seen = set()
        for entry in field:
            name = "" if entry.errors else clean_name(entry.data or "")  # refused already: too long
            if not name:
                continue
            problem = name_problem(name, _=_)
            if problem is None and (name_key(name) in keys or name_key(name) in seen):
                problem = _("%(name)s is here twice.", name=name)
            if problem:
                entry.errors = [*entry.errors, problem]
                raise ValidationError(problem)
            seen.add(name_key(name))

    def locked_pairs(self):
        return _pairs(self.locked.data)

    def layout(self):
        """``seating.plan`` for the people here (raises ``SeatingError``)."""
        return seating.plan(len(self.names()), int(self.team_size.data or 2), self.tables.data or None)

    def shown_seats(self):
        """The proposal the page showed, as tables of teams of names, or None when it is no
        seating of exactly the people here."""
        try:
            tables = json.loads(self.seats.data or "null")
        except ValueError:
            return None
        return tables if well_formed(tables, self.names()) else None

    def seed_number(self):
        return _small_number(self.seed.data)

    def seen_number(self):
        return _small_number(self.seen.data)


def _small_number(text):
    text = text or "0"
    return int(text) if text.isascii() and text.isdigit() and len(text) < 9 else 0


def well_formed(tables, names):
    """Whether ``tables`` seats exactly ``names``, each once, at 1–6 tables of 2–6 teams."""
    if not isinstance(tables, list) or not 1 <= len(tables) <= seating.MAX_TABLES:
        return False
    seated = []
    for table in tables:
        if not isinstance(table, list) or not 2 <= len(table) <= seating.MAX_TEAMS_AT_A_TABLE:
            return False
        for team in table:
            if not isinstance(team, list) or not team or not all(isinstance(n, str) for n in team):
                return False
            seated += team
    return sorted(map(name_key, seated)) == sorted(map(name_key, names)) and len(set(seated)) == len(seated)


def _pairs(text):
    try:
        pairs = json.loads(text or "[]")
    except ValueError:
        return []
    if not isinstance(pairs, list):
        return []
    return [
        tuple(p) for p in pairs if isinstance(p, list) and len(p) == 2 and all(isinstance(n, str) for n in p)
    ]


class ShareForm(FlaskForm):
    """The evening's share buttons (a new link, stop sharing): the CSRF token only."""
