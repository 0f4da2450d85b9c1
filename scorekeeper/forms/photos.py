"""A photo of a game's paper sheet, sent from the phone (issue 55): the camera opens for it."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, FileSize

#: a 12 MP phone photo is 3–8 MB as a JPEG; a PNG of one can be twice that
MAX_PHOTO_SIZE = 20 * 1024 * 1024


class PhotoForm(FlaskForm):
    # accept="image/*" and capture: the phone offers its camera (over http too); named
    # "file" as every upload of the app's is
    file = FileField(
        _l("Photo of the sheet"),
        description=_l("One page of the game’s printed sheet, in good light, its four corners showing."),
        validators=[
            FileRequired(_l("Choose a photo of the sheet, or take one.")),
            FileSize(MAX_PHOTO_SIZE, message=_l("That photo is too big (at most 20 MB): nothing was read.")),
        ],
        render_kw={"accept": "image/*", "capture": "environment"},
    )
