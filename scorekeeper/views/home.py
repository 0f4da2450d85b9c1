"""The home page, and the error pages every blueprint shares."""

import logging
import sqlite3

from flask import Blueprint, current_app, g, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..scoring.language import _
from ..services import game_model
from ..storage import faults
from ..storage.db import forget_connection, get_db

log = logging.getLogger(__name__)

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """Recent games in progress first (one tap to resume), then recent finished games."""
    playing, playing_count, finished = game_model.list_games(get_db())
    return render_template("home/index.html", playing=playing, playing_count=playing_count, finished=finished)


@bp.app_errorhandler(CSRFError)
def csrf_error(error):
    """A form older than an evening of play, or posted from elsewhere."""
    error.description = _(
        "This page was open too long, or the form came from elsewhere. "
        "Go back, reload the page and try again: nothing was saved."
    )
    return render_template("error.html", error=error), 400


@bp.app_errorhandler(HTTPException)
def http_error(error):
    """Show 404s and friends in the app's own page, with a way back."""
    return render_template("error.html", error=error), error.code


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
