"""Uploading a history export to import."""

from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize

# Years of games as JSON run to a few MB; the app's 1 MB limit is for everything else.
MAX_IMPORT_SIZE = 64 * 1024 * 1024


class ImportForm(FlaskForm):
    # no accept=".json": some phones' file pickers then grey out a downloaded file
    file = FileField(
        "Export file",
        description="A Scorekeeper .json export, at most 64 MB.",
        validators=[
            FileRequired("Choose an export file."),
            FileSize(MAX_IMPORT_SIZE, message="That file is too big (at most 64 MB)."),
        ],
    )
