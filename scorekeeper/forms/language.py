"""The household's language (settings); a phone chooses its own by a link (views/language.py)."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField

from ..web.language import EACH_PHONE, LANGUAGES


class HouseholdLanguageForm(FlaskForm):
    """The household's language: the phones' default, and what the computer prints in."""

    language = RadioField(
        _l("The household's language"),
        description=_l(
            "The phones that have not chosen their own read it, and so do the sheets and "
            "pictures this computer prints by itself."
        ),
        choices=[],
    )

    def __init__(self, *args, languages=LANGUAGES, **kwargs):
        super().__init__(*args, **kwargs)
        self.language.choices = [(EACH_PHONE, _l("Each phone's own language"))] + list(languages.items())
