"""Signing in with the household passcode, and setting, changing or removing it.

Passcodes are never written back into a page: a refused form comes back with
its message and the passcode fields empty (a typed passcode stays out of the
HTML, the browser's cache and its history).

``views/auth.py`` counts a guess from what the form itself read, so that no shape of body
(urlencoded, multipart) is an uncounted guess; a JSON body is refused before any form reads
it (``web/bodies.py``).
"""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField, RadioField, SelectChoice, StringField
from wtforms.validators import InputRequired

from ..scoring.language import _
from ..web import passcode
from . import lengths
from .lengths import Fits, passcode_said

#: a passcode's field: no longer than a passcode can be set (the message set passcodes say)
_PASSCODE = Fits(lengths.PASSCODE, passcode_said)


class SignInForm(FlaskForm):
    passcode = PasswordField(
        _l("Household passcode"),
        validators=[_PASSCODE, InputRequired(_l("Type the household passcode."))],
        render_kw={"autocomplete": "current-password", "autocapitalize": "none", "spellcheck": "false"},
    )
    next = HiddenField()  # where the phone was going (a path of this app; checked by the view)

    def __init__(self, *args, stored=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.stored = stored  # the hash of the passcode now set
        self.wrong_passcode = False  # a guess that missed (slowed per phone)

    def validate(self, extra_validators=None):
        if not super().validate(extra_validators):
            # longer than any passcode set: a guess that missed all the same
            self.wrong_passcode = lengths.too_long(self.passcode.data, lengths.PASSCODE)
            return False
        if not passcode.matches(self.stored, self.passcode.data):
            self.passcode.errors.append(_("That is not the passcode. Check it and try again."))
            self.wrong_passcode = True
            return False
        return True


class PasscodeForm(FlaskForm):
    """Set a passcode, or (with the current one) change or remove it.

    ``stored`` is the hash of the passcode now set (None: none is); with
    ``removing`` only the current passcode is asked. ``wrong_passcode`` is set
    when the current passcode given was wrong (slowed like sign-ins).
    """

    current = PasswordField(
        _l("Current passcode"),
        [_PASSCODE],
        render_kw={"autocomplete": "current-password", "autocapitalize": "none", "spellcheck": "false"},
    )
    new = PasswordField(
        _l("New passcode"),
        [_PASSCODE],
        description=_l(
            "At least %(count)s characters. Every other phone signs in again.", count=passcode.MIN_LENGTH
        ),
        render_kw={"autocomplete": "new-password", "autocapitalize": "none", "spellcheck": "false"},
    )
    confirm = PasswordField(
        _l("New passcode again"),
        [_PASSCODE],
        render_kw={"autocomplete": "new-password", "autocapitalize": "none", "spellcheck": "false"},
    )

    def __init__(self, *args, stored=None, removing=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.stored, self.removing, self.wrong_passcode = stored, removing, False

    def validate(self, extra_validators=None):
        if not super().validate(extra_validators):
            return False
        valid = True
        stored = self.stored
        if stored is not None:
            if not self.current.data:
                self.current.errors.append(_("Type the current passcode first."))
                valid = False
            elif not passcode.matches(stored, self.current.data):
                self.current.errors.append(_("That is not the current passcode."))
                self.wrong_passcode = True
                valid = False
        if not self.removing:
            reason = passcode.problem(self.new.data or "")
            if not self.new.data:
                self.new.errors.append(_("Type the new passcode."))
                valid = False
            elif reason:
                self.new.errors.append(reason)
                valid = False
            elif self.confirm.data != self.new.data:
                self.confirm.errors.append(_("The two new passcodes differ: type it again in both."))
                valid = False
        return valid


class SignOutForm(FlaskForm):
    """The sign-out button: CSRF only."""


class HouseholdForm(FlaskForm):
    """The household code, typed as `make run` prints it on the computer."""

    code = StringField(
        _l("Household code"),
        validators=[Fits(lengths.CODE), InputRequired(_l("Type the household code."))],
        description=_l(
            "Six digits, shown on the computer running Scorekeeper: in make run's terminal, "
            "or by its household command."
        ),
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )
    next = HiddenField()


class EveryPhonePairedForm(FlaskForm):
    """The household's "every phone here is paired" setting (views/trust.py)."""

    paired = RadioField(
        _l("Phones over http"),
        choices=[
            SelectChoice("no", _l("Some phones are not made secure yet: http opens the whole app")),
            SelectChoice("yes", _l("Every phone here is made secure: http opens only the page that does it")),
        ],
        default="no",
        validators=[InputRequired(_l("Choose one."))],
    )
