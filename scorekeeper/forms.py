"""Flask-WTF forms for games and rounds (the house-rules editor is in rules_form.py)."""

from flask_wtf import FlaskForm
from wtforms import (FieldList, Form, FormField, HiddenField, RadioField, SelectChoice, SelectField,
                     StringField)
from wtforms.validators import Length, Optional

from . import scoring
from .fields import WholeNumberField
from .rules_form import RulesFields
from .scoring import TeamRound


# --- entering a round ------------------------------------------------------------

NOBODY = "nobody"


def round_form(game, formdata=None, entries=None):
    """The round form for this game's rules: only the fields its rules use.

    :param entries: a saved round's ``TeamRound``s, to edit it.
    """
    rules = game.rules

    class EntryFields(Form):
        pass

    for kind in rules.books:
        setattr(EntryFields, f"book_{kind}", WholeNumberField(rules.book_label(kind), default=0, maximum=99))
    EntryFields.melded_points = WholeNumberField("Points melded", default=0,
                                                 description="Every card laid down, books included.")
    EntryFields.unplayed_points = WholeNumberField("Points left in hand and foot", default=0,
                                                   description="Not counting 3s.")
    EntryFields.red_threes = WholeNumberField("Red 3s caught", default=0, maximum=99)
    EntryFields.black_threes = WholeNumberField("Black 3s caught", default=0, maximum=99)
    if rules.red_three_melded:
        EntryFields.red_threes_melded = WholeNumberField("Red 3s laid down", default=0, maximum=99)
    if rules.cut_22:
        EntryFields.cuts = WholeNumberField("Players who cut exactly 22", default=0, maximum=3)
    if rules.penalty:
        EntryFields.penalties = WholeNumberField("Penalties", default=0, maximum=99)
    # the card-count helper: how many cards of each value, for each points field
    for target in ("melded", "left"):
        for i, tier in enumerate(scoring.value_tiers(rules)):
            setattr(EntryFields, f"{target}_count_{i}",
                    WholeNumberField(f"{tier.label} ×{tier.value}", default=None, maximum=999))

    class RoundForm(FlaskForm):
        teams = FieldList(FormField(EntryFields), min_entries=len(game.teams),
                          max_entries=len(game.teams))
        went_out = RadioField("Who went out", default=NOBODY,
                              choices=[SelectChoice(str(i), f"{t.name} went out")
                                       for i, t in enumerate(game.teams)]
                              + [SelectChoice(NOBODY, "Nobody went out")])
        # a digest of the entries the scorekeeper last saw checked, so that
        # "save" saves exactly what was reviewed
        checked = HiddenField()
        version = HiddenField()

    data = None
    if entries is not None:
        data = {"teams": [_entry_data(rules, e) for e in entries],
                "went_out": next((str(i) for i, e in enumerate(entries) if e.went_out), NOBODY)}
    form = RoundForm(formdata=formdata, data=data)
    form.rules = rules
    return form


def _entry_data(rules, entry):
    data = {f"book_{kind}": entry.books.get(kind, 0) for kind in rules.books}
    return data | {name: getattr(entry, name) for name in
                   ("melded_points", "unplayed_points", "red_threes", "black_threes",
                    "red_threes_melded", "cuts", "penalties")}


def team_fields(form):
    """(team index, its subform) pairs."""
    return [(i, entry.form) for i, entry in enumerate(form.teams)]


def entries_from(form):
    """The ``TeamRound``s the form holds (blank numbers count as 0)."""
    rules, entries = form.rules, []
    for i, fields in team_fields(form):
        def number(name):
            f = getattr(fields, name, None)
            return (f.data or 0) if f is not None else 0
        entries.append(TeamRound(
            books={kind: number(f"book_{kind}") for kind in rules.books},
            melded_points=number("melded_points"), unplayed_points=number("unplayed_points"),
            red_threes=number("red_threes"), black_threes=number("black_threes"),
            red_threes_melded=number("red_threes_melded"), cuts=number("cuts"),
            penalties=number("penalties"), went_out=form.went_out.data == str(i)))
    return entries


def field_for(form, problem):
    """The form field a ``scoring.Problem`` is about, to show it there."""
    if problem.team is None or problem.field == "went_out":
        return form.went_out
    fields = form.teams[problem.team].form
    name = problem.field.replace("books.", "book_") if problem.field else ""
    return getattr(fields, name, form.went_out)


def leaf_fields(form):
    """Every number field by its HTML name, for the − / + and "add up" buttons."""
    return {f.name: f for _, fields in team_fields(form) for f in fields}


def all_fields(form):
    """Every field a person fills in, in page order (for the error summary)."""
    return [form.went_out, *leaf_fields(form).values()]


# --- a new game --------------------------------------------------------------------


class TeamFields(Form):
    name = StringField("Team name", validators=[Optional(), Length(max=40)],
                       description="Leave empty to use the players' names.")
    player_1 = StringField("Player 1", validators=[Optional(), Length(max=40)])
    player_2 = StringField("Player 2", validators=[Optional(), Length(max=40)])
    player_3 = StringField("Player 3", validators=[Optional(), Length(max=40)])

    def player_names(self):
        return [f.data.strip() for f in (self.player_1, self.player_2, self.player_3)
                if f.data and f.data.strip()]


class NewGameForm(FlaskForm):
    rules_key = SelectField("Rule set", choices=[])
    # the rule set the values in `rules` were filled from: if the scorekeeper
    # picks another one, its values are loaded before anything starts
    rules_from = HiddenField()
    rules = FormField(RulesFields)
    teams = FieldList(FormField(TeamFields), min_entries=4, max_entries=4)
    first_dealer = StringField("Who deals first", validators=[Optional(), Length(max=40)],
                               description="A player's name; empty: team 1's first player.")
