"""The automatic backups: the newest one, downloaded from the settings page."""

from flask import Blueprint, abort, current_app, send_file

from ..exchange import autobackup
from ..scoring.language import _
from . import found
from .auth import household_required

bp = Blueprint("backups", __name__)


@bp.get("/backups/latest")
@household_required
def latest():
    """Download the newest automatic backup (behind the passcode, like every page; without
    one, the household code)."""
    backups = autobackup.list_backups(autobackup.for_app(current_app._get_current_object()).folder)
    newest = found(backups[0] if backups else None, _("No automatic backup has been made yet."))
    try:
        file = newest.path.open("rb")  # opened now: a copy pruned meanwhile is a 404, not an error
    except OSError:
        abort(404, description=_("That backup was just replaced by a newer one: try again."))
    return send_file(file, mimetype="application/vnd.sqlite3", as_attachment=True, download_name=newest.name)
