"""The home page, and the error pages every blueprint shares."""

from flask import Blueprint, render_template
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ..db import get_db
from ..services import game_model

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """Recent games in progress first (one tap to resume), then recent finished games."""
    playing, playing_count, finished = game_model.list_games(get_db())
    return render_template("home/index.html", playing=playing, playing_count=playing_count, finished=finished)


@bp.app_errorhandler(CSRFError)
def csrf_error(error):
    """A form older than an evening of play, or posted from elsewhere."""
    error.description = (
        "This page was open too long, or the form came from elsewhere. "
        "Go back, reload the page and try again: nothing was saved."
    )
    return render_template("error.html", error=error), 400


@bp.app_errorhandler(HTTPException)
def http_error(error):
    """Show 404s and friends in the app's own page, with a way back."""
    return render_template("error.html", error=error), error.code
