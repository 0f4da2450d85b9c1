"""Starting a game, and the buttons that change one."""

from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, HiddenField, RadioField, StringField
from wtforms.validators import Optional

from ..names import MAX_NAME, clean_name, name_key, name_problem
from ..scoring import MAX_PLAYERS_PER_TEAM, MAX_TEAMS, MIN_TEAMS
from .fields import RevisionField
from .rules import RulesFields


class ActionForm(FlaskForm):
    """A button that changes a game: CSRF, and the revision the page showed."""

    revision = RevisionField()
    round_id = RevisionField()  # for a button about one round


class TeamFields(Form):
    name = StringField(
        "Team name", validators=[Optional()], description="Leave empty to use the players' names."
    )
    players = FieldList(
        StringField("Player", validators=[Optional()]),
        min_entries=MAX_PLAYERS_PER_TEAM,
        max_entries=MAX_PLAYERS_PER_TEAM,
    )

    def player_names(self):
        return [clean_name(f.data) for f in self.players if clean_name(f.data)]


class NewGameForm(FlaskForm):
    # radio buttons, not selects: a choice is shown whole however long its name
    rules_key = RadioField("Rule set", choices=[])
    # a preset's variants (two players, 1 + 1 …), each a rule set of its own
    variant = RadioField("Variant", choices=[], validate_choice=False)
    # the rule set the values in `rules` were filled from: if the scorekeeper
    # picks another one, its values are loaded before anything starts
    rules_from = HiddenField()
    rules = FormField(RulesFields)
    teams = FieldList(FormField(TeamFields), min_entries=MAX_TEAMS, max_entries=MAX_TEAMS)
    first_dealer = StringField(
        "Who deals first",
        validators=[Optional()],
        description="A player's name; empty: team 1's first player.",
    )

    def validate(self, extra_validators=None):
        """Each field, then the teams as a whole: names, nobody twice, enough teams, the dealer."""
        valid = super().validate(extra_validators)
        refused = []  # (FieldList keeps a copy of its entries' errors: track them here)

        def refuse(field, message):
            field.errors.append(message)
            refused.append(field)

        seen = {}  # name key -> (team number, the name as first typed)
        teams = 0
        for number, entry in enumerate(self.teams, start=1):
            fields = entry.form
            team_name = clean_name(fields.name.data)
            if team_name and name_problem(team_name, MAX_NAME):
                refuse(fields.name, name_problem(team_name, MAX_NAME))
            names = 0
            for f in fields.players:
                name = clean_name(f.data)
                if not name:
                    continue
                names += 1
                problem = name_problem(name, MAX_NAME)
                if problem:
                    refuse(f, problem)
                elif name_key(name) in seen:
                    team, first = seen[name_key(name)]
                    refuse(f, f"{first} is already on team {team}.")
                else:
                    seen[name_key(name)] = (number, name)
            if names:
                teams += 1
            elif team_name:
                refuse(fields.players[0], "Add at least one player, or clear the team name.")
        if teams < MIN_TEAMS:
            refuse(self.teams[0].form.players[0], "A game needs at least two teams, each with a player.")
        dealer = clean_name(self.first_dealer.data)
        if dealer and name_key(dealer) not in seen:
            refuse(self.first_dealer, "Who deals first must be one of this game's players.")
        return valid and not refused

    def teams_data(self):
        """(team name, [player names]) for each team with a player, for ``create_game``."""
        return [
            (clean_name(entry.form.name.data), entry.form.player_names())
            for entry in self.teams
            if entry.form.player_names()
        ]
