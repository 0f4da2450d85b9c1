"""A photo of a game's paper sheet (issue 55): sent from the game's page or its typing page,
read on the computer (``printing.photos.take``), then the typing page opens filled in from it
(``views.paper``, ``?photo=``), nothing saved; the photo and its boxes' cut-outs, shown
under the passcode as every page is."""

from flask import Blueprint, abort, current_app, redirect, render_template, request, send_file, url_for

from ..forms.paper import SCORE, SHEET_SCORE
from ..forms.photos import MAX_PHOTO_SIZE, PhotoForm
from ..printing import layout, photos
from ..scoring.language import _
from ..services import game_model
from ..storage import photos as kept
from ..storage.db import get_db
from ..web import bodies
from .games import REFUSED, game_or_404
from .home import http_error

bp = Blueprint("photos", __name__, url_prefix="/games")
# the photo and the rest of the form (its CSRF token, the multipart's own lines)
BODY = MAX_PHOTO_SIZE + 64 * 1024


@bp.route("/<id:game_id>/photo", methods=["GET", "POST"])
@bodies.takes(BODY)
def read(game_id):
    """Read a photo of the game's printed sheet, then open the typing page filled in from it."""
    game = game_or_404(game_id)
    form = PhotoForm()
    if not form.validate_on_submit():
        return _page(game, form, status=REFUSED if form.is_submitted() else 200)
    try:
        taken = photos.take(get_db(), current_app.config["PHOTOS"], game, form.file.data.read())
    except photos.Refused as refusal:
        form.file.errors.append(str(refusal))
        return _page(game, form, refusal=refusal, status=REFUSED)
    return redirect(url_for("paper.sheet", game_id=game.id, photo=taken.number), 303)


@bp.errorhandler(413)
def too_big(error):
    """A photo larger than the page takes, refused before it was read."""
    game = game_model.load_game(get_db(), (request.view_args or {}).get("game_id", 0))
    if game is None:
        return http_error(error)
    form = PhotoForm(formdata=None)
    form.file.errors = [_("That photo is too big (at most 20 MB): nothing was read.")]
    return _page(game, form, status=413)


def _page(game, form, *, refusal=None, status=200):
    return render_template("photos/read.html", game=game, form=form, refusal=refusal), status


@bp.get("/<id:game_id>/photos/<int:number>")
def photo(game_id, number):
    """A photo of the game's sheet, as the phone sent it."""
    game = game_or_404(game_id)
    path = kept.photo_path(current_app.config["PHOTOS"], game.uid, number)
    if path is None:
        abort(404, description=_("There is no photo %(number)s of this game.", number=number))
    response = send_file(path, mimetype=kept.MIMETYPES[path.suffix[1:]], max_age=0)
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@bp.get("/<id:game_id>/photos/<int:number>/<name>.png")
def box(game_id, number, name):
    """One box of the sheet cut out of a photo (beside its value on the typing page)."""
    game = game_or_404(game_id)
    png = kept.box_of(current_app.config["PHOTOS"], game.uid, number, name)
    if png is None:
        abort(404)
    response = current_app.response_class(png, mimetype="image/png")
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


# --- the typing page filled in from a photo (views.paper) ---------------------------------


def asked(game, number):
    """(what was read, its number) of the game's photo ``number`` (as the page carried it:
    text, a number or None), or (None, None): none asked, or no such photo."""
    text = str(number or "")
    if not (text.isascii() and text.isdigit() and 0 < len(text) < 7):
        return None, None
    read = kept.read_of(current_app.config["PHOTOS"], game.uid, int(text))
    return (read, int(text)) if read is not None else (None, None)


def typed_already(read):
    """What a photo's page typed in meanwhile says."""
    return photos.page_typed(read["page"], read["sheet_first"], read["sheet_last"])


def line_of(form, name):
    """The sheet's line a box of the page is: a game kept as its scores has the round score."""
    return SHEET_SCORE if name == SCORE else name


def fill(form, read):
    """The page's boxes filled with what was read from a photo (nothing is saved)."""
    for i, lines in enumerate(form.rounds):
        for t, team in enumerate(lines.form.teams):
            for box in team.form:
                found = read["boxes"].get(photos.box_name(form.first + i, t, line_of(form, box.short_name)))
                if found is not None and found.get("value") is not None:
                    box.data = found["value"]


def boxes_shown(game, form, read, number):
    """{box id: (its cut-out's address, its mark or None, the words beside it)} of a page
    filled in from a photo; a marked box the family has changed since is no longer marked
    (they looked at it), its cut-out still beside it."""
    marks = photos.marks(read, game)
    shown = {}
    for i, lines in enumerate(form.rounds):
        for t, team in enumerate(lines.form.teams):
            for box in team.form:
                name = photos.box_name(form.first + i, t, line_of(form, box.short_name))
                if name not in read["boxes"]:
                    continue
                mark, words = marks.get(name, (None, None))
                if box.data != read["boxes"][name].get("value"):
                    mark, words = None, None
                src = url_for("photos.box", game_id=game.id, number=number, name=name)
                shown[box.id] = (src, mark, words)
    return shown


def samples_saved(game, form):
    """The family's hand from a page filled in from a photo: every box of digits saved, each
    digit beside its cut-out (``printing.photos.samples``); none when the page was typed."""
    read, number = asked(game, form.photo.data)
    if read is None:
        return []
    # the lines written in digits (a tick box is not): what samples are made of
    digits = {
        line.name
        for line in layout.readable_lines(game.rules, game.scores_only)
        if line.kind in photos.DIGIT_KINDS
    }
    saved = {}
    for i, lines in enumerate(form.rounds):
        for t, team in enumerate(lines.form.teams):
            for box in team.form:
                if line_of(form, box.short_name) in digits:
                    name = photos.box_name(form.first + i, t, line_of(form, box.short_name))
                    saved[name] = box.data
    return photos.samples(current_app.config["PHOTOS"], game, number, saved)
