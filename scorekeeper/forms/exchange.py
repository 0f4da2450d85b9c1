"""Uploading a history export to import, or a spreadsheet of past games."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize
from wtforms import HiddenField, RadioField, SelectChoice

from ..exchange.limits import MAX_IMPORT_SIZE, MAX_PAST_GAMES_SIZE
from ..exchange.pastgames import DATE_ORDERS
from .fields import RevisionField

# Years of games as JSON run to a few MB; the app's 1 MB limit is for everything else. Both
# sizes, and what a file of that size may hold, are declared in exchange/limits.py.
__all__ = ["MAX_IMPORT_SIZE", "MAX_PAST_GAMES_SIZE", "ImportForm", "PastGamesForm"]


class ImportForm(FlaskForm):
    # no accept=".json": some phones' file pickers then grey out a downloaded file
    file = FileField(
        _l("Export file"),
        description=_l("A Scorekeeper .json export, at most 64 MB."),
        validators=[
            FileRequired(_l("Choose an export file.")),
            FileSize(MAX_IMPORT_SIZE, message=_l("That file is too big (at most 64 MB).")),
        ],
    )


class PastGamesForm(FlaskForm):
    """A CSV of past games: the file, the rule set its games were played under (unless a
    ``rules`` column says), how it writes its days with the year last (asked only where the
    file cannot say); after the preview, the file itself (``content``, base64) comes back
    with "Import", so nothing is kept on the computer, with the count of games the button
    said (``count``) and the games like ones here ticked to import anyway (``anyway``, their
    uids: read by the view, as many as the preview lists)."""

    file = FileField(
        _l("Spreadsheet (CSV)"),
        description=_l("Saved as CSV from a spreadsheet, at most 8 MB."),
        validators=[FileSize(MAX_PAST_GAMES_SIZE, message=_l("That file is too big (at most 8 MB)."))],
    )
    rules = RadioField(_l("Played under"), choices=[], validate_choice=False)
    dates = RadioField(
        _l("Days like 03/04/2026 are written"),
        choices=[SelectChoice(key, _l(said)) for key, said in DATE_ORDERS.items()],
        default="auto",
    )
    content = HiddenField()
    name = HiddenField()  # the file's name, to say which file the preview is of
    count = RevisionField()  # the games "Import N games" said
