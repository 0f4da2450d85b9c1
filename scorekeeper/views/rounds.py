"""A game's rounds: entering the next one, fixing one, deleting one, undoing the last.

Every page of a round is a GET (post/redirect/get) but "Save"; see
``_round_editor``. The game itself (start, show, end, reopen) is ``games.py``.
"""

import functools

from flask import Blueprint, current_app, flash, render_template, request, session

from ..forms.games import ActionForm
from ..forms.rounds import entries_from, round_form
from ..scoring.language import _
from ..services import Conflict, NotFound, game_model
from ..services import rounds as round_changes
from ..storage.db import get_db
from ..storage.faults import Fault
from . import found, posted_or_filled, round_screen
from .games import SAVED, flash_refusal, game_or_404, print_later, to_game
from .home import told

bp = Blueprint("rounds", __name__, url_prefix="/games")


def _no_store(view):
    """Round pages are never kept by the browser: Back asks the app again, which
    knows whether the round was saved meanwhile (and then shows the game)."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        response = current_app.make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapped


@bp.post("/<id:game_id>/undo")
def undo(game_id):
    """Take back the round this phone just entered (one tap, logged as undone)."""
    game = game_or_404(game_id)
    form = ActionForm()
    if not form.validate_on_submit():
        flash(_("That button had expired: nothing was changed. Please try again."), "error")
        return to_game(game.id)
    played = next((r for r in game.rounds if r.id == form.round_id.data), None)
    if played is None:
        flash(_("That round is no longer in this game: nothing was undone."), "error")
        return to_game(game.id)
    try:
        after = round_changes.delete_round(
            get_db(), game.id, form.revision.data, played.id, loaded=game, action="undone"
        )
    except (Conflict, NotFound) as refusal:
        flash_refusal(refusal)
        return to_game(game.id)
    print_later(after)
    session.pop(SAVED, None)
    flash(_("Round %(number)s undone.", number=played.number), "success")
    return to_game(game.id)


@bp.route("/<id:game_id>/rounds/new", methods=["GET", "POST"])
@_no_store
def new(game_id):
    """Enter the next round."""
    game = game_or_404(game_id)
    if _saved_here(game, None):
        return to_game(game.id)
    if request.method == "POST" and _saved_already(game):
        return to_game(game.id)
    if not game.is_open or game.finished:
        flash(_("This game is finished: there is no next round to enter."), "error")
        return to_game(game.id)
    return _round_editor(game, None)


@bp.route("/<id:game_id>/rounds/<id:number>/edit", methods=["GET", "POST"])
@_no_store
def edit(game_id, number):
    """Fix a saved round."""
    game, played, refused = _fixable(game_id, number, editing=True)
    return refused or _round_editor(game, played)


def _round_id(values):
    return ActionForm(formdata=values, meta={"csrf": False}).round_id.data


def _saved_here(game, played):
    """Whether this phone saved, from this very page, the round it is about: a
    page opened again after a save (Back, a second tap on Save) shows the game."""
    saved, values = session.get(SAVED), round_screen.values_sent()
    if not isinstance(saved, dict) or saved.get("game") != game.id or "revision" not in values:
        return False
    if values["revision"] != str(saved.get("before")):
        return False
    return saved.get("round") == _round_id(values) if played else bool(saved.get("added"))


def _saved_already(game):
    """Whether this post is a save the app already made: the same reviewed values,
    posted again with the revision they were saved over (the phone never had the
    answer: the Wi-Fi dropped, the page was reloaded). The session's note went
    with the lost answer, so the change log says: the change after that revision
    added this round with these entries. Then the save is noted as this phone's,
    and the game is shown."""
    values = request.form
    if values.get("action") != "save" or "step" in values:
        return False
    revision = ActionForm(formdata=values, meta={"csrf": False}).revision.data
    if revision is None or revision >= game.revision:
        return False
    added = game_model.round_added_by(get_db(), game.id, revision + 1)
    if added is None:
        return False
    number, logged = added
    form = round_form(game, formdata=values, number=number, csrf=False)
    if not form.validate():
        return False
    entries = entries_from(form)
    if [e.to_dict() for e in entries] != logged:
        return False
    if form.checked.data != round_screen.digest(game, entries, number, revision):
        return False
    played = game.round(number)
    session[SAVED] = {
        "game": game.id,
        "round": played.id if played else None,
        "number": number,
        "added": True,
        "before": revision,
        "after": revision + 1,
        "draft": round_screen.draft_key(game, None, number),
    }
    flash(_("Round %(number)s saved.", number=number), "success")
    return True


def _fixable(game_id, number, editing=False):
    """(game, round, None) when the round can be fixed; else a redirect as the third.

    A form carries the id of the round it was opened for: that round is the one
    fixed, whatever its number now (ids are never reused).

    :param editing: the round's form: opened again after this phone saved it, it shows the game.
    """
    game = game_or_404(game_id)
    values = round_screen.values_sent()
    if request.method == "POST" or "round_id" in values:
        round_id = _round_id(values)
        played = next((r for r in game.rounds if r.id == round_id), None)
        if editing and played is not None and _saved_here(game, played):
            return game, played, to_game(game.id)
        if played is None:
            flash(
                _("That round is no longer in this game (deleted on another phone?): nothing was saved."),
                "error",
            )
            return game, None, to_game(game.id)
    else:
        played = found(game.round(number), _("This game has no round %(number)s.", number=number))
    if game.is_open:
        return game, played, None
    flash(_("This game is finished: tap “Reopen to fix a round” first."), "error")  # games/show.html's button
    return game, played, to_game(game.id)


def _round_editor(game, played):
    """One screen for all teams: check (the engine's review), then save (``round_screen``)."""
    values = round_screen.values_sent()
    if request.method == "POST" and values:
        if values.get("action") == "save" and "step" not in values:
            number = played.number if played else game.standings.next_round
            return _save_checked(game, played, number, values)
        return round_screen.to_editor(game, played, values)
    return round_screen.page(game, played, values)


def _save_checked(game, played, number, values):
    """Save the round if these are the values the review showed; else show the review (again)."""
    entries = round_screen.proven(game, number, values)
    if entries is not None:  # what the check step reviewed, exactly: saved without a second check
        return _save(game, played, number, entries, values)
    form = round_form(
        game, formdata=values, number=number, saved=played.entries if played else None, csrf=False
    )
    if form.revision.data != game.revision:
        return round_screen.to_editor(game, played, values, action="check")  # which says what changed
    entries, _problems = round_screen.checked(game, form, number)
    if entries is None:
        return round_screen.to_editor(game, played, values, action="check")  # which says what is wrong
    if form.checked.data != round_screen.digest(game, entries, number, game.revision):
        # saved without checking these values: check them first
        return round_screen.to_editor(game, played, values, action="check", changed="1")
    return _save(game, played, number, entries, values)


def _save(game, played, number, entries, values):
    db = get_db()
    try:
        if played:
            after = round_changes.update_round(db, game.id, game.revision, played.id, entries, loaded=game)
        else:
            after = round_changes.add_round(db, game.id, game.revision, number, entries, loaded=game)
    except (Conflict, NotFound):
        # changed meanwhile: the round screen says what, and keeps what was typed
        return round_screen.to_editor(game, played, values, action="check")
    except Fault as fault:  # the disk is full, or the file read-only: the review again, with Save
        # Translators: what was not done, and what to do again, in a storage fault's sentence
        status = told(fault, _("round %(number)s was not saved", number=number), _("tap Save again"))
        shown = values.copy()
        shown["action"] = "check"
        page, _status = round_screen.page(game, played, shown)
        return page, status
    print_later(after)
    if after.revision == game.revision:
        flash(_("Round %(number)s is unchanged: nothing to save.", number=number), "info")
        return to_game(game.id)
    round_id = played.id if played else after.round(number).id
    session[SAVED] = {
        "game": game.id,
        "round": round_id,
        "number": number,
        "added": not played,
        "before": game.revision,
        "after": after.revision,
        "draft": round_screen.draft_key(game, played, number),
    }
    flash(
        _("Round %(number)s updated.", number=number)
        if played
        else _("Round %(number)s saved.", number=number),
        "success",
    )
    return to_game(game.id)  # the top: totals, meld minimums, the next round


@bp.route("/<id:game_id>/rounds/<id:number>/delete", methods=["GET", "POST"])
def delete(game_id, number):
    """Ask, then delete a round (later rounds move up one)."""
    game, played, refused = _fixable(game_id, number)
    if refused:
        return refused
    form = posted_or_filled(ActionForm, revision=game.revision, round_id=played.id)
    if form.validate_on_submit():
        try:
            after = round_changes.delete_round(get_db(), game.id, form.revision.data, played.id, loaded=game)
        except (Conflict, NotFound) as refusal:
            flash_refusal(refusal)
            return to_game(game.id)
        print_later(after)
        flash(_("Round %(number)s deleted.", number=played.number), "success")
        return to_game(game.id)
    return render_template(
        "games/delete_round.html",
        game=game,
        played=played,
        form=form,
        scores=game.standings.round_scores[played.number - 1],
    )
