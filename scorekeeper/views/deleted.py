"""Deleting a game and bringing it back (issue 54): the question that names it, Undo on
the next page, the deleted games with the household's log, and Restore."""

from flask import Blueprint, abort, flash, redirect, render_template, session, url_for

from ..forms.games import ActionForm
from ..scoring.language import _
from ..services import Conflict, NotFound, deleted, game_model
from ..storage.db import get_db
from ..web.formatting import day
from . import posted_or_filled
from .games import flash_refusal, game_or_404, print_later, to_game

bp = Blueprint("deleted", __name__, url_prefix="/games")

# The session's note of the game this phone just deleted: the next page it shows offers
# Undo (once, as a flashed message is shown once; base.html asks ``undo_delete``).
JUST_DELETED = "deleted"


@bp.route("/<id:game_id>/delete", methods=["GET", "POST"])
def delete(game_id):
    """Ask, naming the game (teams, date, score), then delete it: Undo right after, or
    Restore from the deleted games for 30 days."""
    game = game_or_404(game_id)
    form = posted_or_filled(ActionForm, revision=game.revision)
    if form.validate_on_submit():
        try:
            gone = deleted.delete_game(get_db(), game.id, form.revision.data, loaded=game)
        except (Conflict, NotFound) as refusal:
            flash_refusal(refusal)
            return to_game(game.id)
        said = _("Game deleted: %(game)s, played %(day)s.", game=gone.title, day=day(gone.played_at))
        flash(said, "success")
        session[JUST_DELETED] = {"game": gone.id, "revision": gone.revision}
        return redirect(url_for("history.index"), 303)
    return render_template(
        "games/delete.html",
        game=game,
        s=game.standings,
        form=form,
        seat=deleted.evening_seat(get_db(), game.id),
        days=deleted.KEPT_DAYS,
    )


@bp.post("/<id:game_id>/restore")
def restore(game_id):
    """Bring a deleted game back whole (Undo, the deleted games, the game's own page)."""
    db = get_db()
    if game_model.deleted_when(db, game_id) is None and not game_model.game_exists(db, game_id):
        abort(404, description=_("There is no game %(id)s.", id=game_id))
    form = ActionForm()
    if not form.validate_on_submit():
        flash(_("That button had expired: nothing was changed. Please try again."), "error")
        return redirect(url_for("deleted.index"), 303)
    try:
        game = deleted.restore_game(db, game_id, form.revision.data)
    except (Conflict, NotFound) as refusal:
        flash_refusal(refusal)
        if game_model.game_exists(db, game_id):  # restored on another phone: there it is
            return to_game(game_id)
        return redirect(url_for("deleted.index"), 303)
    session.pop(JUST_DELETED, None)
    print_later(game)
    flash(_("Game restored: %(game)s, played %(day)s.", game=game.title, day=day(game.played_at)), "success")
    return to_game(game.id)


@bp.get("/deleted")
def index():
    """The games deleted in the last 30 days, each with Restore, and the household's log."""
    db = get_db()
    listed, count = deleted.deleted_games(db)
    return render_template(
        "games/deleted.html",
        listed=listed,
        count=count,
        logged=deleted.household_log(db),
        days=deleted.KEPT_DAYS,
        action=ActionForm(),
    )


@bp.app_context_processor
def _undo():
    def undo_delete():
        """The game this phone just deleted ({game, revision}), once: the page that shows
        the "Game deleted" message offers Undo beside it."""
        note = session.pop(JUST_DELETED, None)
        return note if isinstance(note, dict) and {"game", "revision"} <= note.keys() else None

    return {"undo_delete": undo_delete}
