"""Every game, newest first, filtered."""

import math

from flask import Blueprint, abort, render_template, request, url_for

from ..forms.history import FilterForm
from ..scoring.language import _
from ..services import history, players
from ..storage.db import get_db
from . import page_number

bp = Blueprint("history", __name__, url_prefix="/history")


@bp.get("")
def index():
    """All games, newest first, a page at a time, filtered by player, rules, dates, status."""
    db = get_db()
    form = FilterForm(request.args)
    filters = form.filters(players.list_players(db), history.rule_set_names(db))
    page = page_number(request.args, lenient=True)
    listed, count = history.find_games(db, filters, page)
    pages = max(1, math.ceil(count / history.PAGE_SIZE))
    if page > pages:
        abort(404, description=_("There is no such page."))
    args = {k: v for k, v in request.args.items() if k != "page" and v}
    return render_template(
        "history/index.html",
        form=form,
        count=count,
        page=page,
        pages=pages,
        listed=listed,
        newer=url_for("history.index", **args, page=page - 1) if page > 1 else None,
        older=url_for("history.index", **args, page=page + 1) if page < pages else None,
    )
