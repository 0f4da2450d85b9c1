"""The automatic backups: the newest one, downloaded from the settings page."""

from flask import Blueprint, current_app, send_file

from .. import autobackup
from . import found

bp = Blueprint("backups", __name__)


@bp.get("/backups/latest")
def latest():
    """Download the newest automatic backup (behind the passcode, like every page)."""
    backups = autobackup.list_backups(autobackup.for_app(current_app._get_current_object()).folder)
    newest = found(backups[0] if backups else None, "No automatic backup has been made yet.")
    return send_file(
        newest.path, mimetype="application/vnd.sqlite3", as_attachment=True, download_name=newest.name
    )
