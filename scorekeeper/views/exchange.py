"""Take the family's history away (JSON, CSV) and bring it back (import, and past games
from a spreadsheet)."""

import base64
import binascii
import datetime
import json

from flask import Blueprint, Response, current_app, flash, redirect, render_template, request, url_for
from wtforms import SelectChoice

from ..exchange import collector_paused, csvfile, importer, jsonfile, pastgames, sheet_columns
from ..forms.exchange import MAX_IMPORT_SIZE, MAX_PAST_GAMES_SIZE, ImportForm, PastGamesForm
from ..names import name_key
from ..scoring.language import _, ngettext
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
    """Years of paper sheets: a spreadsheet of past games, shown as what it would add (each
    game, and which are here already or like a game here), then its new games imported
    (or, with any bad line, nothing, each bad line said with its number)."""
    db = get_db()
    entries = rulesets.list_rule_sets(db)
    form = PastGamesForm()
    form.rules.choices = [SelectChoice(e.key, e.rules.title) for e in entries]
    if not form.is_submitted():
        form.rules.data = form.rules.data or entries[0].key
        return _past_page(form)
    if not form.validate():
        return _past_page(form), REFUSED
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
        return _past_page(form), REFUSED
    by_name = {name_key(e.rules.name): (e.key, e.rules) for e in entries}
    try:
        with collector_paused():
            preview = pastgames.read_past_games(content, by_name, (chosen.key, chosen.rules), form.dates.data)
    except pastgames.DaysAsked as asked:  # the file is fine so far: it rides along, the days asked
        form.dates.errors.append(str(asked))
        _carry(form, content, upload)
        return _past_page(form), REFUSED
    except pastgames.PastGamesRefused as refused:
        form.content.data = ""
        return _past_page(form, refused=refused), REFUSED
    pastgames.compare(db, preview)
    anyway = {p.uid for p in preview.listed if p.optional} & set(request.form.getlist("anyway"))
    games = preview.chosen(anyway)
    recount, status = False, 200
    if request.form.get("action") == "import" and not upload:  # the file previewed, come back
        if form.count.data == len(games):
            try:
                with collector_paused():
                    summary = importer.write_checked(db, [], [], games)
            except importer.ImportUnderWay as busy:  # the preview again, to import once it is done
                form.file.errors.append(_("Nothing was imported: %(error)s", error=busy))
                status = BUSY
            else:
                said = str(summary)
                left = preview.alike(anyway)
                if left:
                    said += " " + ngettext(
                        "%(num)s game like one here already was left out.",
                        "%(num)s games like ones here already were left out.",
                        left,
                        num=format(left, ","),
                    )
                flash(said, "success")
                return redirect(url_for("history.index"), 303)
        else:
            recount = True  # the boxes ticked, or the history, changed what the button said
    _carry(form, content, upload)
    form.count.data = len(games)
    known = {name_key(p.name) for p in players.list_players(db)}
    return _past_page(
        form,
        preview=preview,
        known=[n for n in preview.players if name_key(n) in known],
        new=[n for n in preview.players if name_key(n) not in known],
        anyway=anyway,
        importing=len(games),
        recount=recount,
    ), status


def _past_page(form, **values):
    """The spreadsheet page: its form, and a preview or the lines to fix if there are."""
    examples = {layout: sheet_columns.template_columns(layout) for layout in ("games", "scores")}
    return render_template("exchange/past_games.html", form=form, examples=examples, **values)


def _carry(form, content, upload):
    """The file rides in the page (base64), to be previewed again or imported."""
    form.content.data = base64.b64encode(content).decode("ascii")
    if upload:
        form.name.data = upload.filename or ""


@bp.get("/import/past-games/<any(games, scores):layout>.csv")
@language.in_household_language
def past_games_template(layout):
    """A spreadsheet to fill in with past games (its first line, in the household's language)."""
    name = "past-games-a-line-a-game" if layout == "games" else "past-games-a-line-a-team"
    return Response(
        sheet_columns.template(layout).encode("utf-8"),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
    )


def _carried(text):
    """The file the preview carried back (base64), or b"" if it is not one."""
    try:
        return base64.b64decode(text or "", validate=True)
    except (binascii.Error, ValueError):
        return b""
