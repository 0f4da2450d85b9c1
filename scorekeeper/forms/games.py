"""Starting a game, when it was played, and the buttons that change one."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, HiddenField, RadioField, SelectChoice, StringField
from wtforms.validators import Optional

from ..names import MAX_NAME, clean_name, name_key, name_problem
from ..scoring import MAX_PLAYERS_PER_TEAM, MAX_TEAMS, MIN_TEAMS
from ..scoring.language import _
from ..services.evenings import local, played
from ..services.game_model import PAPER_SHEET, SCORES_ONLY
from . import lengths
from .fields import ClockField, DayField, RevisionField
from .lengths import Fits
from .rules import RulesFields

#: how a game is kept, as New game asks it (None: on a phone round by round)
KEPT = (
    SelectChoice("phone", _l("On this phone, round by round")),
    SelectChoice(PAPER_SHEET, _l("On a paper sheet: print it, type it in afterwards")),
    SelectChoice(SCORES_ONLY, _l("From an old sheet that kept only each round’s score")),
)


class PlayedFields:
    """When a game was played: a day and a time on the household's clock."""

    played_day = DayField(_l("Day played"), validators=[Optional()])
    played_time = ClockField(_l("Time"), validators=[Optional()])

    def played_problem(self):
        """Put a message by the day that cannot be when a game was played; return whether all is well."""
        if self.played_day.errors or self.played_time.errors:
            return False  # said already: what was typed is no day or time
        try:
            self.played_at()
        except ValueError as error:
            self.played_day.errors.append(str(error))
            return False
        return True

    def played_at(self, now=None):
        """The stored time (UTC) the day and time typed say, or None for now.

        :raises ValueError: later than now, or past the calendar's ends.
        """
        return played(self.played_day.data, self.played_time.data, now)

    def show_played(self, stamp):
        """Fill the day and time with a stored time, as the household's clock has it."""
        moment = local(stamp)
        if moment is not None:
            self.played_day.data, self.played_time.data = moment.date(), moment.time().replace(second=0)


class ActionForm(FlaskForm):
    """A button that changes a game: CSRF, and the revision the page showed."""

    revision = RevisionField()
    round_id = RevisionField()  # for a button about one round


class TeamFields(Form):
    name = StringField(
        _l("Team name"),
        validators=[Fits(lengths.NAME), Optional()],
        description=_l("Leave empty to use the players' names."),
    )
    players = FieldList(
        StringField(_l("Player"), validators=[Fits(lengths.NAME), Optional()]),
        min_entries=MAX_PLAYERS_PER_TEAM,
        max_entries=MAX_PLAYERS_PER_TEAM,
    )

    def player_names(self):
        return [clean_name(f.data) for f in self.players if clean_name(f.data)]


class PlayedForm(PlayedFields, FlaskForm):
    """Correcting when a game was played; the revision the page showed."""

    revision = RevisionField()

    def validate(self, extra_validators=None):
        valid = super().validate(extra_validators)
        if valid and self.played_day.data is None:
            self.played_day.errors.append(_("Pick the day it was played."))
            return False
        return valid and self.played_problem()


class NewGameForm(PlayedFields, FlaskForm):
    # radio buttons, not selects: a choice is shown whole however long its name
    rules_key = RadioField(_l("Rule set"), choices=[])
    # a preset's variants (two players, 1 + 1 …), each a rule set of its own
    variant = RadioField(_l("Variant"), choices=[], validate_choice=False)
    # the rule set the values in `rules` were filled from: if the scorekeeper
    # picks another one, its values are loaded before anything starts
    rules_from = HiddenField()
    rules = FormField(RulesFields)
    teams = FieldList(FormField(TeamFields), min_entries=MAX_TEAMS, max_entries=MAX_TEAMS)
    first_dealer = StringField(
        _l("Who deals first"),
        validators=[Fits(lengths.NAME), Optional()],
        description=_l("A player's name; empty: team 1's first player."),
    )
    # not sent (an older page, a script): on a phone round by round
    kept = RadioField(_l("Scored"), choices=KEPT, default="phone", validate_choice=False)

    def paper(self):
        """How the game is kept, for ``create_game``: None on a phone round by round."""
        return self.kept.data if self.kept.data in (PAPER_SHEET, SCORES_ONLY) else None

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
            # a name refused already (too long to read) counts as none
            team_name = "" if fields.name.errors else clean_name(fields.name.data)
            if team_name and name_problem(team_name, MAX_NAME):
                refuse(fields.name, name_problem(team_name, MAX_NAME, _=_))
            names = 0
            for f in fields.players:
                name = "" if f.errors else clean_name(f.data)
                if not name:
                    names += bool(f.errors)
                    continue
                names += 1
                problem = name_problem(name, MAX_NAME, _=_)
                if problem:
                    refuse(f, problem)
                elif name_key(name) in seen:
                    team, first = seen[name_key(name)]
                    refuse(f, _("%(name)s is already on team %(team)s.", name=first, team=team))
                else:
                    seen[name_key(name)] = (number, name)
            if names:
                teams += 1
            elif team_name:
                refuse(fields.players[0], _("Add at least one player, or clear the team name."))
        if teams < MIN_TEAMS:
            refuse(self.teams[0].form.players[0], _("A game needs at least two teams, each with a player."))
        dealer = "" if self.first_dealer.errors else clean_name(self.first_dealer.data)
        if dealer and name_key(dealer) not in seen:
            refuse(self.first_dealer, _("Who deals first must be one of this game's players."))
        return self.played_problem() and valid and not refused

    def teams_data(self):
        """(team name, [player names]) for each team with a player, for ``create_game``."""
        return [
            (clean_name(entry.form.name.data), entry.form.player_names())
            for entry in self.teams
            if entry.form.player_names()
        ]
