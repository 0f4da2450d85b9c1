from flask import Blueprint, render_template
from werkzeug.exceptions import HTTPException

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    """Show the home page."""
    return render_template("home/index.html")


@bp.app_errorhandler(HTTPException)
def http_error(error):
    """Show 404s and friends in the app's own page, with a way back."""
    return render_template("error.html", error=error), error.code
