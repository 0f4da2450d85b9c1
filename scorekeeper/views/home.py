"""The home page, and the error pages every blueprint shares."""

import logging
import sqlite3

from flask import Blueprint, current_app, g, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..scoring.language import N_, _
from ..services import game_model, rulesets
from ..storage import faults
from ..storage.db import forget_connection, get_db

log = logging.getLogger(__name__)

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """Recent games in progress first (one tap to resume), then recent finished games."""
    playing, playing_count, finished = game_model.list_games(get_db())
    return render_template("home/index.html", playing=playing, playing_count=playing_count, finished=finished)


@bp.app_template_global()
def household_game():
    """What a page that is no one game's names in its title: the household's game (its latest
    game's: "Buraco"), Hand and Foot before any."""
    try:
        name = rulesets.household_game(get_db())
    except (sqlite3.Error, faults.Fault):
        name = None  # a page telling of a broken scores file still has a title
    return name or _("Hand and Foot")


@bp.app_errorhandler(CSRFError)
def csrf_error(error):
    """A form older than an evening of play, or posted from elsewhere."""
    error.description = _(
        "This page was open too long, or the form came from elsewhere. "
        "Go back, reload the page and try again: nothing was saved."
    )
    return render_template("error.html", error=error, name=_(_NAMES[400])), 400


# werkzeug's names and words for the errors a phone may meet, in the reader's language
# (the English is werkzeug's own, word for word)
_NAMES = {
    400: N_("Bad Request"),
    403: N_("Forbidden"),
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    413: N_("Request Entity Too Large"),
    415: N_("Unsupported Media Type"),
    429: N_("Too Many Requests"),
}
_SAID = {
    400: N_("The browser (or proxy) sent a request that this server could not understand."),
    404: N_(
        "The requested URL was not found on the server. If you entered the URL manually please "
        "check your spelling and try again."
    ),
    405: N_("The method is not allowed for the requested URL."),
    413: N_("The data value transmitted exceeds the capacity limit."),
    415: N_("The server does not support the media type transmitted in the request."),
}


@bp.app_errorhandler(HTTPException)
def http_error(error):
    """Show 404s and friends in the app's own page, with a way back."""
    name = _(_NAMES[error.code]) if error.code in _NAMES else error.name
    description = error.description
    if error.code in _SAID and description == _SAID[error.code]:  # werkzeug's, not ours
        description = _(_SAID[error.code])
    return render_template("error.html", error=error, name=name, description=description), error.code


@bp.app_errorhandler(faults.Fault)
@bp.app_errorhandler(sqlite3.Error)
@bp.app_errorhandler(OSError)
def storage_fault(error):
    """A fault of the storage (``faults.fault_of``): what happened and what to do, under
    507 or 503, never the generic 500. A form's values come back in a form that sends
    them again (a view that can show its own form with them does so itself: ``told``)."""
    fault = faults.fault_of(error, current_app.config["DATABASE"])
    if fault is None:
        raise error
    posted = request.method == "POST"
    told(
        fault,
        # Translators: what was not done, and what to do again, in a storage fault's sentence
        _("nothing was changed") if posted else _("this page cannot be shown now"),
        _("tap the button below") if posted else _("reload this page"),
    )
    # a passcode is never written into a page: those forms are typed again
    secret = (request.endpoint or "").startswith("auth.")
    fields = list(request.form.items(multi=True)) if posted and not secret else []
    return render_template("fault.html", fields=fields, files=bool(request.files)), fault.status


def told(fault, what, again):
    """Put ``fault``'s sentence at the top of the page a view shows next (base.html); return its status."""
    log.warning("%s %s: %s (%s)", request.method, request.path, fault.kind, fault.detail)
    if fault.lasting:  # the connection that met it is opened afresh by the next request
        forget_connection()
    g.fault_message = fault.message(what, again)
    return fault.status
