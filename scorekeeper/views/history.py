import math

from flask import Blueprint, render_template, request, url_for
from wtforms import Form, SelectChoice, SelectField
from wtforms.fields import DateField

from .. import games, history
from ..db import get_db

bp = Blueprint("history", __name__, url_prefix="/history")


class FilterForm(Form):
    """The history filters: a GET form (bookmarkable, no CSRF needed: it changes nothing)."""

    player = SelectField("Player", choices=[], default="")
    rules = SelectField("Rule set", choices=[], default="")
    since = DateField("From", validators=[], render_kw={"autocomplete": "off"})
    until = DateField("To", validators=[], render_kw={"autocomplete": "off"})
    status = SelectField("Games", default="",
                         choices=[SelectChoice("", "All games")]
                         + [SelectChoice(k, v) for k, v in history.STATUSES.items()])


def _filters(form, db):
    players = games.list_players(db)
    form.player.choices = [SelectChoice("", "Everyone")] + [
        SelectChoice(str(p["id"]), p["name"]) for p in players]
    form.rules.choices = [SelectChoice("", "Every rule set")] + [
        SelectChoice(name, name) for name in history.rule_set_names(db)]
    form.validate()  # wrong values get a message next to their field and are not applied
    return history.Filters(
        player=int(form.player.data) if form.player.data and not form.player.errors else None,
        rules=form.rules.data if form.rules.data and not form.rules.errors else None,
        since=form.since.data.isoformat() if form.since.data and not form.since.errors else None,
        until=form.until.data.isoformat() if form.until.data and not form.until.errors else None,
        status=form.status.data if form.status.data and not form.status.errors else None)


@bp.get("")
def index():
    """All games, newest first, a page at a time, filtered by player, rules, dates, status."""
    db = get_db()
    form = FilterForm(request.args)
    filters = _filters(form, db)
    try:
        page = max(1, int(request.args.get("page", 1)))
    except ValueError:
        page = 1
    ids, count = history.find_games(db, filters, page)
    pages = max(1, math.ceil(count / history.PAGE_SIZE))
    args = {k: v for k, v in request.args.items() if k != "page" and v}
    return render_template(
        "history/index.html", form=form, count=count, page=page, pages=pages,
        listed=[games.load_game(db, game_id) for game_id in ids],
        newer=url_for("history.index", **args, page=page - 1) if page > 1 else None,
        older=url_for("history.index", **args, page=page + 1) if page < pages else None)
