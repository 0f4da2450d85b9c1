"""A game: starting one, its screen, entering and fixing rounds, ending and reopening it."""

import functools
import hashlib
import json
from urllib.parse import urlencode

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from wtforms import SelectChoice

from .. import charts, scoring, sheets
from ..db import get_db
from ..exchange.jsonfile import game_json
from ..forms.games import ActionForm, NewGameForm
from ..forms.rounds import (
    add_up,
    all_fields,
    entries_from,
    entry_fields,
    field_for,
    round_form,
    step,
    summary_titles,
    team_fields,
)
from ..forms.rule_values import fields_from_rules, fields_with_errors, rules_from_fields
from ..services import Conflict, NotFound, game_model, games, players, ratings, rulesets
from . import found, posted_or_filled
from .share import share_url

bp = Blueprint("games", __name__, url_prefix="/games")

# A refused form is shown again with this status, so tests and tools can tell
# it from a first visit; browsers show the page all the same.
REFUSED = 422
# The session's note of the last round this phone saved: for "Undo round N",
# for Back after a save (the game, not the round's form), and to clear its draft.
SAVED = "saved"
# a round form's values in a URL: six teams with every field take under 8 KB
LONGEST_QUERY = 16 * 1024


def _no_store(view):
    """Round pages are never kept by the browser: Back asks the app again, which
    knows whether the round was saved meanwhile (and then shows the game)."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        response = current_app.make_response(view(*args, **kwargs))
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapped


def _game_or_404(game_id, **options):
    game = game_model.load_game(get_db(), game_id, remember=True, **options)
    return found(game, f"There is no game {game_id}.")


def _to_game(game_id, anchor=None):
    # 303: after a POST, the browser GETs the game (Back never re-posts a form)
    return redirect(url_for("games.show", game_id=game_id, _anchor=anchor), 303)


def _print_later(game):
    """Render the changed game's sheet in the background, so that "Print" finds it ready."""
    if game.revision:
        sheets.render_later(current_app._get_current_object(), game)


def _refused(conflict):
    """Flash a refusal and what changed meanwhile."""
    flash(str(conflict), "error")
    for change in conflict.changes:
        flash(f"Meanwhile: {change.summary}", "info")


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Start a game: rule set and its variant (adjusted for this game if need be), teams, who deals first."""
    db = get_db()
    entries = rulesets.list_rule_sets(db)
    by_key = {e.key: e for e in entries}
    if request.method == "GET":
        entry = by_key.get(request.args.get("rules", ""), entries[0])
        return _new_game_page(_with_rules_of(NewGameForm(formdata=None), entry), entries)
    form = NewGameForm()
    entry = by_key.get(_chosen(form))
    if entry is None or request.form.get("action") == "load" or form.rules_from.data != entry.key:
        # another rule set or variant was picked (or none known): show its values, start nothing yet
        entry = entry or entries[0]
        return _new_game_page(_with_rules_of(form, entry), entries, loaded=entry)
    form.rules_key.choices = _choices(entries)
    if request.form.get("action") == "chances":  # each team's chance from the names typed: nothing started
        return _new_game_page(form, entries, chances=_typed_chances(form) or ([], None))
    valid = form.validate()  # each field, then the teams as a whole
    rules = rules_from_fields(form.rules)
    if not valid or rules is None:
        return _new_game_page(form, entries, status=REFUSED)
    game = games.create_game(db, rules, entry.key, form.teams_data(), form.first_dealer.data)
    flash("Game started. Good luck!", "success")
    return _to_game(game.id)


def _chosen(form):
    """The rule set key the form picks: the preset's variant when it has variants."""
    variants = scoring.VARIANTS.get(form.rules_key.data, ())
    keys = [v.key for v in variants]
    if form.variant.data in keys:
        return form.variant.data
    return form.rules_key.data


def _choices(entries):
    """Presets and house rules; a preset's variants are its own second choice."""
    return [SelectChoice(e.key, e.rules.name) for e in entries if scoring.variant_of(e.key) in (None, e.key)]


def _with_rules_of(form, entry):
    """The form with its rule values replaced by this rule set's (teams kept)."""
    fresh = NewGameForm(formdata=None, data={"rules": fields_from_rules(entry.rules)})
    form._fields["rules"] = form.rules = fresh.rules
    form.rules_key.data = scoring.variant_of(entry.key) or entry.key
    form.variant.data = form.rules_from.data = entry.key
    return form


def _typed_chances(form):
    """(team names, chances) for the teams typed so far; a name not known yet is a new player."""
    db = get_db()
    teams = form.teams_data()
    if len(teams) < 2:
        return None
    lineup = []
    for _, names in teams:
        known = [players.find_player(db, name) for name in names]
        lineup.append([p.id if p else None for p in known])
    names = [name or " & ".join(members) for name, members in teams]
    return names, ratings.win_chances(db, lineup)


def _new_game_page(form, entries, status=200, loaded=None, chances=None):
    form.rules_key.choices = _choices(entries)
    form.variant.choices = [
        SelectChoice(v.key, v.label) for v in scoring.VARIANTS.get(form.rules_key.data, ())
    ]
    entry = next(e for e in entries if e.key == form.rules_from.data)
    return render_template(
        "games/new.html",
        form=form,
        entry=entry,
        loaded=loaded,
        rule_problems=fields_with_errors(form.rules),
        players=[p.name for p in players.list_players(get_db())],
        chances=chances,
    ), status


@bp.get("/<id:game_id>")
def show(game_id):
    """Show a game: standings, meld minimums, who deals, every round, its share link."""
    game = _game_or_404(game_id, changes=True)
    saved = session.get(SAVED)
    saved = saved if isinstance(saved, dict) and saved.get("game") == game.id else None
    response = current_app.make_response(
        render_template(
            "games/show.html",
            game=game,
            s=game.standings,
            action=ActionForm(revision=game.revision),
            chart=_progress_chart(game),
            share_url=share_url(game.share_token) if game.share_token else None,
            undo=_undoable(game, saved),
            draft_done=saved.get("draft") if saved else None,
            win_chances=_win_chances(game),
        )
    )
    # kept for Back and Forward, asked again otherwise (static/app.js asks the
    # app whether the game changed when the browser shows it from its cache)
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _win_chances(game):
    """Each team's chance to win from its players' ratings, before the game's first round."""
    if game.rounds or game.finished_at:
        return None
    return ratings.win_chances(get_db(), [[p.id for p in team.players] for team in game.teams])


def _undoable(game, saved):
    """The round this phone just entered, while it is still the game's last change."""
    if not saved or not saved.get("added") or saved.get("after") != game.revision:
        return None
    played = game.round(saved.get("number"))
    return played if played is not None and played.id == saved.get("round") else None


@bp.post("/<id:game_id>/undo")
def undo_round(game_id):
    """Take back the round this phone just entered (one tap, logged as undone)."""
    game = _game_or_404(game_id)
    form = ActionForm()
    if not form.validate_on_submit():
        flash("That button had expired: nothing was changed. Please try again.", "error")
        return _to_game(game.id)
    played = next((r for r in game.rounds if r.id == form.round_id.data), None)
    if played is None:
        flash("That round is no longer in this game: nothing was undone.", "error")
        return _to_game(game.id)
    try:
        after = games.delete_round(
            get_db(), game.id, form.revision.data, played.id, loaded=game, action="undone"
        )
    except (Conflict, NotFound) as refusal:
        _refused(refusal if isinstance(refusal, Conflict) else Conflict(str(refusal)))
        return _to_game(game.id)
    _print_later(after)
    session.pop(SAVED, None)
    flash(f"Round {played.number} undone.", "success")
    return _to_game(game.id)


def _progress_chart(game):
    """Each team's running total after each round (the engine's), as a chart."""
    s = game.standings
    if not s.running_totals:
        return None
    names = [team.name for team in game.teams]
    leader = ", ".join(names[w] for w in s.winners) if s.winners else None
    description = (
        f"Running totals after each of {len(s.running_totals)} rounds. "
        + "; ".join(f"{name}: {total:,}" for name, total in zip(names, s.totals))
        + (f". Winner: {leader}." if leader else ".")
    )
    return charts.line_chart(
        "Score by round",
        description,
        [str(r.number) for r in game.rounds],
        [(name, [totals[i] for totals in s.running_totals]) for i, name in enumerate(names)],
    )


@bp.get("/<id:game_id>.json")
def export(game_id):
    """The game as JSON: rules, teams, rounds, scores, standings."""
    return jsonify(game_json(_game_or_404(game_id)))


@bp.route("/<id:game_id>/rounds/new", methods=["GET", "POST"])
@_no_store
def new_round(game_id):
    """Enter the next round."""
    game = _game_or_404(game_id)
    if _saved_here(game, None):
        return _to_game(game.id)
    if request.method == "POST" and _saved_already(game):
        return _to_game(game.id)
    if not game.is_open or game.finished:
        flash("This game is finished: there is no next round to enter.", "error")
        return _to_game(game.id)
    return _round_editor(game, None)


@bp.route("/<id:game_id>/rounds/<id:number>/edit", methods=["GET", "POST"])
@_no_store
def edit_round(game_id, number):
    """Fix a saved round."""
    game, played, refused = _fixable(game_id, number, editing=True)
    return refused or _round_editor(game, played)


def _values():
    """What the round form holds: posted, or in a GET's query (post/redirect/get)."""
    return request.form if request.method == "POST" else request.args


def _round_id(values):
    return ActionForm(formdata=values, meta={"csrf": False}).round_id.data


def _saved_here(game, played):
    """Whether this phone saved, from this very page, the round it is about: a
    page opened again after a save (Back, a second tap on Save) shows the game."""
    saved, values = session.get(SAVED), _values()
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
    if [e.to_dict() for e in entries] != logged or form.checked.data != _digest(entries, number, revision):
        return False
    played = game.round(number)
    session[SAVED] = {
        "game": game.id,
        "round": played.id if played else None,
        "number": number,
        "added": True,
        "before": revision,
        "after": revision + 1,
        "draft": _draft_key(game, None, number),
    }
    flash(f"Round {number} saved.", "success")
    return True


def _fixable(game_id, number, editing=False):
    """(game, round, None) when the round can be fixed; else a redirect as the third.

    A form carries the id of the round it was opened for: that round is the one
    fixed, whatever its number now (ids are never reused).

    :param editing: the round's form: opened again after this phone saved it, it shows the game.
    """
    game = _game_or_404(game_id)
    values = _values()
    if request.method == "POST" or "round_id" in values:
        round_id = _round_id(values)
        played = next((r for r in game.rounds if r.id == round_id), None)
        if editing and played is not None and _saved_here(game, played):
            return game, played, _to_game(game.id)
        if played is None:
            flash(
                "That round is no longer in this game (deleted on another phone?): nothing was saved.",
                "error",
            )
            return game, None, _to_game(game.id)
    else:
        played = found(game.round(number), f"This game has no round {number}.")
    if game.is_open:
        return game, played, None
    flash("This game is finished: tap “Reopen to fix a round” first.", "error")  # games/show.html's button
    return game, played, _to_game(game.id)


def _digest(entries, number, revision):
    text = json.dumps([[e.to_dict() for e in entries], number, revision], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _round_editor(game, played):
    """One screen for all teams: check (the engine's review), then save.

    Only "Save" writes, so only it is a POST that stays one. Every other
    button (Check, − / +, Add up) posts the form and is sent to a GET of the
    same values (post/redirect/get): every page of the round is a GET, so Back
    never meets a page the browser must post again, and a reload shows it.

    The hidden ``revision`` is the game as the page was opened: a save is
    refused if the game changed since. ``checked`` is a digest of the entries,
    the round number and the revision the review showed, so "save" saves
    exactly what was reviewed, under the number and scores shown.
    """
    number = played.number if played else game.standings.next_round
    values = _values()
    saved = played.entries if played else None
    if not values:
        form = round_form(game, entries=saved, number=number, saved=saved, csrf=False)
        form.revision.data = game.revision
        form.round_id.data = played.id if played else None
        return _render_round(game, played, form, fresh=True)
    if request.method == "POST":
        if values.get("action") == "save" and "step" not in values:
            return _save_checked(game, played, number, values)
        return _to_editor(game, played, values)
    form = round_form(game, formdata=values, number=number, saved=saved, csrf=False)
    action = values.get("action", "check")
    if "step" in values:
        name, _, delta = values["step"].rpartition(":")
        step(form, name, delta)
        return _render_round(game, played, form, number)
    if action.startswith("add-"):
        target, _, team = action.partition("-")[2].partition("-")
        add_up(form, target, int(team) if team.isascii() and team.isdigit() and len(team) < 3 else -1)
        return _render_round(game, played, form, number)
    if form.revision.data != game.revision:
        # the game changed since this page was opened: say what, keep what was typed
        _refused(
            Conflict(
                "This game changed on another phone since you opened this page: "
                "check the round again before saving it.",
                game_model.changes_since(get_db(), game.id, form.revision.data)
                if form.revision.data is not None
                else (),
            )
        )
        form.revision.data = game.revision
        form.checked.data = ""
        return _render_round(game, played, form, number, status=REFUSED)
    entries, problems = _checked(game, form, number)
    if entries is None:
        return _render_round(game, played, form, number, status=REFUSED)
    form.checked.data = _digest(entries, number, game.revision)
    return _render_round(
        game,
        played,
        form,
        number,
        review=entries,
        changed=values.get("changed") == "1",
        warnings=[p for p in problems if p.level == "warning"],
    )


def _checked(game, form, number):
    """(entries, the engine's problems), or (None, ...) with every error put next to its field."""
    if not form.validate():
        return None, ()
    entries = entries_from(form)
    problems = scoring.check_round(
        game.rules, entries, number, team_names=[t.name for t in game.teams], players=game.player_count
    )
    errors = [p for p in problems if p.level == "error"]
    for problem in errors:
        field_for(form, problem).errors.append(problem.message)
    return (None if errors else entries), problems


def _to_editor(game, played, values, **changes):
    """303 to the round screen showing ``values`` (a GET: nothing is written).

    The browser keeps a button's ``#team-2`` on the way, so "Add up" and − / +
    come back at their team; Check and Save post to the bare path and come
    back at the top, where the review is (or the list of what to fix first).
    Nothing remembers or restores a scroll position: a new page opens at its
    top or at its own anchor, whatever was scrolled before.
    """
    dropped = {"csrf_token", "checked", "changed", *changes}
    pairs = [(k, v) for k, v in values.items(multi=True) if k not in dropped] + list(changes.items())
    query = urlencode(pairs)
    if len(query) > LONGEST_QUERY:
        abort(413)
    if played:
        url = url_for("games.edit_round", game_id=game.id, number=played.number)
    else:
        url = url_for("games.new_round", game_id=game.id)
    return redirect(f"{url}?{query}", 303)


def _save_checked(game, played, number, values):
    """Save the round if these are the values the review showed; else show the review (again)."""
    form = round_form(
        game, formdata=values, number=number, saved=played.entries if played else None, csrf=False
    )
    if form.revision.data != game.revision:
        return _to_editor(game, played, values, action="check")  # which says what changed
    entries, _ = _checked(game, form, number)
    if entries is None:
        return _to_editor(game, played, values, action="check")  # which says what is wrong
    if form.checked.data != _digest(entries, number, game.revision):
        # saved without checking these values: check them first
        return _to_editor(game, played, values, action="check", changed="1")
    return _save(game, played, number, entries, values)


def _save(game, played, number, entries, values):
    db = get_db()
    try:
        if played:
            after = games.update_round(db, game.id, game.revision, played.id, entries, loaded=game)
        else:
            after = games.add_round(db, game.id, game.revision, number, entries, loaded=game)
    except (Conflict, NotFound):
        # changed meanwhile: the round screen says what, and keeps what was typed
        return _to_editor(game, played, values, action="check")
    _print_later(after)
    if after.revision == game.revision:
        flash(f"Round {number} is unchanged: nothing to save.", "info")
        return _to_game(game.id)
    round_id = played.id if played else after.round(number).id
    session[SAVED] = {
        "game": game.id,
        "round": round_id,
        "number": number,
        "added": not played,
        "before": game.revision,
        "after": after.revision,
        "draft": _draft_key(game, played, number),
    }
    flash(f"Round {number} {'updated' if played else 'saved'}.", "success")
    return _to_game(game.id)  # the top: totals, meld minimums, the next round


def _draft_key(game, played, number):
    """Where the phone keeps what is typed into this round (static/app.js)."""
    return f"{game.id}:fix-{played.id}" if played else f"{game.id}:round-{number}"


def _render_round(
    game, played, form, number=None, *, status=200, review=None, warnings=(), changed=False, fresh=False
):
    """The round screen; with ``review`` (the entries checked), the engine's
    standings as they would be with this round saved.

    :param fresh: the form as the app has it (not values sent back): a draft
        kept on the phone is offered over it.
    """
    number = number or (played.number if played else game.standings.next_round)
    rounds = [r.entries for r in game.rounds]
    if review is not None:
        rounds = rounds[: number - 1] + [review] + rounds[number:]
    # every number below is the engine's: nothing is added up here
    s = scoring.standings(game.rules, rounds, teams=len(game.teams))
    minimums = s.meld_minimums[number - 1] if number <= len(rounds) else s.next_meld_minimums
    return render_template(
        "games/round.html",
        game=game,
        played=played,
        form=form,
        number=number,
        fields=all_fields(form),
        titles=summary_titles(form, [team.name for team in game.teams]),
        teams=team_fields(form),
        entry_fields=entry_fields,
        tiers=form.tiers,
        minimums=minimums,
        books_needed=scoring.books_to_go_out(game.rules, number),
        first_meld=form.first_meld,
        dealer=game.dealer(number),
        review=s.round_scores[number - 1] if review is not None else None,
        totals_after=s.running_totals[number - 1] if review is not None else None,
        warnings=warnings,
        changed=changed,
        draft=_draft_key(game, played, number),
        fresh=fresh,
    ), status


@bp.route("/<id:game_id>/rounds/<id:number>/delete", methods=["GET", "POST"])
def delete_round(game_id, number):
    """Ask, then delete a round (later rounds move up one)."""
    game, played, refused = _fixable(game_id, number)
    if refused:
        return refused
    form = posted_or_filled(ActionForm, revision=game.revision, round_id=played.id)
    if form.validate_on_submit():
        try:
            after = games.delete_round(get_db(), game.id, form.revision.data, played.id, loaded=game)
        except (Conflict, NotFound) as refusal:
            _refused(refusal if isinstance(refusal, Conflict) else Conflict(str(refusal)))
            return _to_game(game.id)
        _print_later(after)
        flash(f"Round {played.number} deleted.", "success")
        return _to_game(game.id)
    return render_template(
        "games/delete_round.html",
        game=game,
        played=played,
        form=form,
        scores=game.standings.round_scores[played.number - 1],
    )


@bp.route("/<id:game_id>/end", methods=["GET", "POST"])
def end(game_id):
    """Ask, then end the game here; the highest total wins."""
    game = _game_or_404(game_id)
    form = posted_or_filled(ActionForm, revision=game.revision)
    if game.finished and not game.is_open:
        return _to_game(game.id, "result")
    if form.validate_on_submit():
        return _change(game, games.end_game, form, "Game over.", "result")
    return render_template("games/end.html", game=game, s=game.standings, form=form)


@bp.post("/<id:game_id>/reopen")
def reopen(game_id):
    """Reopen a finished game to fix a round."""
    game = _game_or_404(game_id)
    form = ActionForm()
    if not form.validate_on_submit():
        flash("That button had expired: nothing was changed. Please try again.", "error")
        return _to_game(game.id)
    return _change(game, games.reopen_game, form, "Game reopened: fix any round, then save it.")


def _change(game, change, form, message, anchor=None):
    try:
        after = change(get_db(), game.id, form.revision.data, loaded=game)
    except (Conflict, NotFound) as refusal:
        _refused(refusal if isinstance(refusal, Conflict) else Conflict(str(refusal)))
        return _to_game(game.id)
    _print_later(after)
    flash(message, "success")
    return _to_game(game.id, anchor)
