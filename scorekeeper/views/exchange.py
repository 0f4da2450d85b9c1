"""Take the family's history away (JSON, CSV) and bring it back (import)."""

import datetime
import json

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for

from ..db import connect, get_db
from ..exchange import csvfile, importer, jsonfile
from ..forms.exchange import MAX_IMPORT_SIZE, ImportForm
from ..services import game_model
from . import found

bp = Blueprint("exchange", __name__)

# A refused upload is shown again with this status (as on the rules pages).
REFUSED = 422


@bp.url_value_preprocessor
def _allow_large_import(endpoint, values):
    # This runs before every before_request function, CSRFProtect's included,
    # which reads the form (and so applies the size limit) before the view does.
    if endpoint == "exchange.import_file" and request.method == "POST":
        request.max_content_length = MAX_IMPORT_SIZE


def _streamed(chunks, mimetype, filename):
    """A download written a game at a time from its own connection (closed when done or dropped)."""
    path = current_app.config["DATABASE"]

    def generate():
        db = connect(path)
        try:
            yield from chunks(db)
        finally:
            db.close()

    return Response(
        generate(), mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )


def _today():
    return datetime.date.today().isoformat()  # the household's own date, for the file name


@bp.get("/export.json")
def export_json():
    """Download the whole history as JSON, the format import reads."""
    return _streamed(jsonfile.iter_history_json, "application/json", f"scorekeeper-history-{_today()}.json")


@bp.get("/export.csv")
def export_csv():
    """Download the whole history as CSV: a row per team per round."""
    return _streamed(csvfile.iter_csv, "text/csv", f"scorekeeper-history-{_today()}.csv")


@bp.get("/games/<id:game_id>/export.json")
def export_game_json(game_id):
    """Download one game in the history format (importable)."""
    db = get_db()
    found(game_model.game_exists(db, game_id) or None, "There is no such game.")
    return Response(
        json.dumps(jsonfile.export_game(db, game_id), ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="scorekeeper-game-{game_id}.json"'},
    )


@bp.get("/games/<id:game_id>/export.csv")
def export_game_csv(game_id):
    """Download one game as CSV."""
    db = get_db()
    found(game_model.game_exists(db, game_id) or None, "There is no such game.")
    return Response(
        csvfile.export_csv(db, game_id),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="scorekeeper-game-{game_id}.csv"'},
    )


@bp.route("/import", methods=["GET", "POST"])
def import_file():
    """Import a history export: all of it, or nothing with the reason."""
    form = ImportForm()
    if form.validate_on_submit():
        try:
            data = importer.read_history(form.file.data.read())
            summary = importer.import_history(get_db(), data)
        except ValueError as error:
            form.file.errors.append(f"Nothing was imported: {error}")
        else:
            flash(str(summary), "success")
            return redirect(url_for("home.index"), 303)
    return render_template("exchange/import.html", form=form), REFUSED if form.is_submitted() else 200
