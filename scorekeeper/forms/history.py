"""The history filters."""

from flask_babel import lazy_gettext as _l
from wtforms import Form, RadioField, SelectChoice, SelectField
from wtforms.validators import Optional

from ..scoring.language import _
from ..scoring.presets import title
from ..services.history import STATUSES, Filters
from .fields import DayField


class FilterForm(Form):
    """The history filters: a GET form (bookmarkable, no CSRF needed: it changes nothing).

    Wrong values get a message next to their field and are not applied.
    """

    player = SelectField(_l("Player"), choices=[], default="")
    # radio buttons: a rule set's name is shown whole however long (a select cuts it short)
    rules = RadioField(_l("Rule set"), choices=[], default="")
    # Optional: every browser sends the empty fields (?since=&until=), which mean "any day"
    since = DayField(_l("From"), validators=[Optional()], render_kw={"autocomplete": "off"})
    until = DayField(_l("To"), validators=[Optional()], render_kw={"autocomplete": "off"})
    status = SelectField(
        _l("Games"),
        default="",
        choices=[SelectChoice("", _l("All games"))] + [SelectChoice(k, _l(v)) for k, v in STATUSES.items()],
    )

    def filters(self, players, rule_names):
        """The filters to apply: the valid values of the fields (call once)."""
        self.player.choices = [SelectChoice("", _("Everyone"))] + [
            SelectChoice(str(p.id), p.name) for p in players
        ]
        self.rules.choices = [SelectChoice("", _("Every rule set"))] + [
            SelectChoice(name, title(name)) for name in rule_names
        ]
        self.validate()

        def ok(field):
            return field.data if field.data and not field.errors else None

        return Filters(
            player=int(ok(self.player)) if ok(self.player) else None,
            rules=ok(self.rules),
            since=ok(self.since),
            until=ok(self.until),
            status=ok(self.status),
        )
