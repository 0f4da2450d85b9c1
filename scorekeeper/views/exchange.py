"""Take the family's history away (JSON, CSV) and bring it back (import, and past games
from a spreadsheet)."""

import base64
import binascii
import datetime
import json

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from wtforms import SelectChoice

from ..exchange import collector_paused, csvfile, importer, jsonfile, pastgames
from ..forms.exchange import MAX_IMPORT_SIZE, MAX_PAST_GAMES_SIZE, ImportForm, PastGamesForm
from ..names import name_key
from ..scoring.language import _
from ..services import game_model, players, rulesets
from ..storage.db import connect, get_db
from ..web import bodies, language
from . import found
from .auth import household_required

bp = Blueprint("exchange", __name__)

# A refused upload is shown again with this status (as on the rules pages); one that came
# while another import was being written, with this one (try again once it is done).
REFUSED = 422
BUSY = 409


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
@household_required
@language.english
def export_json():
    """Download the whole history as JSON, the format import reads."""
    return _streamed(jsonfile.iter_history_json, "application/json", f"scorekeeper-history-{_today()}.json")


@bp.get("/export.csv")
@household_required
@language.english
def export_csv():
    """Download the whole history as CSV: a row per team per round."""
    return _streamed(csvfile.iter_csv, "text/csv", f"scorekeeper-history-{_today()}.csv")


@bp.get("/games/<id:game_id>/export.json")
@household_required  # importable: a guest stepping through the ids would take the whole history
@language.english
def export_game_json(game_id):
    """Download one game in the history format (importable)."""
    db = get_db()
    found(game_model.game_exists(db, game_id) or None, _("There is no such game."))
    return Response(
        json.dumps(jsonfile.export_game(db, game_id), ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="scorekeeper-game-{game_id}.json"'},
    )


@bp.get("/games/<id:game_id>/export.csv")
@household_required  # the history's CSV, a game at a time
@language.english
def export_game_csv(game_id):
    """Download one game as CSV."""
    db = get_db()
    found(game_model.game_exists(db, game_id) or None, _("There is no such game."))
    return Response(
        csvfile.export_csv(db, game_id),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="scorekeeper-game-{game_id}.csv"'},
    )


@bp.route("/import", methods=["GET", "POST"])
@bodies.takes(MAX_IMPORT_SIZE)
@household_required
def import_file():
    """Import a history export: all of it, or nothing with the reason."""
    form = ImportForm()
    status = REFUSED if form.is_submitted() else 200
    if form.validate_on_submit():
        try:
            with collector_paused():
                summary = importer.import_file(get_db(), form.file.data.read())
        except ValueError as error:
            form.file.errors.append(_("Nothing was imported: %(error)s", error=error))
            if isinstance(error, importer.ImportUnderWay):
                status = BUSY
        else:
            flash(str(summary), "success")
            return redirect(url_for("home.index"), 303)
    return render_template("exchange/import.html", form=form), status


@bp.route("/import/past-games", methods=["GET", "POST"])
# the file, and after the preview the same file again in a field (base64: 4/3 of it)
@bodies.takes(3 * MAX_PAST_GAMES_SIZE, in_fields=True)
@household_required
def import_past():
    """Years of paper sheets: a spreadsheet of past games, shown as what it would add, then
    imported whole (or, with any bad line, nothing, each bad line said with its number)."""
    db = get_db()
    entries = rulesets.list_rule_sets(db)
    form = PastGamesForm()
    form.rules.choices = [SelectChoice(e.key, e.rules.title) for e in entries]
    if not form.is_submitted():
        form.rules.data = form.rules.data or entries[0].key
        return render_template("exchange/past_games.html", form=form)
    if not form.validate():
        return render_template("exchange/past_games.html", form=form), REFUSED
    chosen = next((e for e in entries if e.key == form.rules.data), None)
    if chosen is None:
        form.rules.errors.append(_("Pick the rule set these games were played under."))
    upload = form.file.data
    content = upload.read() if upload else _carried(form.content.data)
    if not content:
        form.file.errors.append(_("Choose the spreadsheet, saved as CSV."))
    if form.dates.data not in pastgames.DATE_ORDERS:
        form.dates.errors.append(_("Pick how the file writes its days."))
    if form.rules.errors or form.file.errors or form.dates.errors:
        return render_template("exchange/past_games.html", form=form), REFUSED
    by_name = {name_key(e.rules.name): (e.key, e.rules) for e in entries}
    try:
        with collector_paused():
            preview = pastgames.read_past_games(content, by_name, (chosen.key, chosen.rules), form.dates.data)
    except pastgames.PastGamesRefused as refused:
        form.content.data = ""
        return render_template("exchange/past_games.html", form=form, refused=refused), REFUSED
    status = 200
    if request.form.get("action") == "import" and not upload:  # the file previewed, come back
        try:
            with collector_paused():
                summary = importer.write_checked(db, [], [], preview.games)
        except importer.ImportUnderWay as busy:  # the preview again, to import once it is done
            form.file.errors.append(_("Nothing was imported: %(error)s", error=busy))
            status = BUSY
        else:
            flash(str(summary), "success")
            return redirect(url_for("history.index"), 303)
    form.content.data = base64.b64encode(content).decode("ascii")
    if upload:
        form.name.data = upload.filename or ""
    known = {name_key(p.name) for p in players.list_players(db)}
    return render_template(
        "exchange/past_games.html",
        form=form,
        preview=preview,
        known=[n for n in preview.players if name_key(n) in known],
        new=[n for n in preview.players if name_key(n) not in known],
        already=pastgames.already_here(db, preview.games),
    ), status


def _carried(text):
    """The file the preview carried back (base64), or b"" if it is not one."""
    try:
        return base64.b64decode(text or "", validate=True)
    except (binascii.Error, ValueError):
        return b""
