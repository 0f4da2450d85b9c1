"""A game: starting one, its screen, entering and fixing rounds, ending and reopening it."""

import hashlib
import json

from flask import Blueprint, current_app, flash, jsonify, redirect, render_template, request, url_for
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
    team_fields,
)
from ..forms.rule_values import fields_from_rules, fields_with_errors, rules_from_fields
from ..services import Conflict, NotFound, games, players, rulesets
from . import found
from .share import share_url

bp = Blueprint("games", __name__, url_prefix="/games")

# A refused form is shown again with this status, so tests and tools can tell
# it from a first visit; browsers show the page all the same.
REFUSED = 422


def _game_or_404(game_id, **options):
    game = games.load_game(get_db(), game_id, remember=True, **options)
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


def _new_game_page(form, entries, status=200, loaded=None):
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
    ), status


@bp.get("/<id:game_id>")
def show(game_id):
    """Show a game: standings, meld minimums, who deals, every round, its share link."""
    game = _game_or_404(game_id, changes=True)
    return render_template(
        "games/show.html",
        game=game,
        s=game.standings,
        action=ActionForm(revision=game.revision),
        chart=_progress_chart(game),
        share_url=share_url(game.share_token) if game.share_token else None,
    )


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
def new_round(game_id):
    """Enter the next round."""
    game = _game_or_404(game_id)
    if not game.is_open or game.finished:
        flash("This game is finished: there is no next round to enter.", "error")
        return _to_game(game.id)
    return _round_editor(game, None)


@bp.route("/<id:game_id>/rounds/<id:number>/edit", methods=["GET", "POST"])
def edit_round(game_id, number):
    """Fix a saved round."""
    game, played, refused = _fixable(game_id, number)
    return refused or _round_editor(game, played)


def _fixable(game_id, number):
    """(game, round, None) when the round can be fixed; else a redirect as the third.

    A form posts the id of the round it was opened for: that round is the one
    fixed, whatever its number now (ids are never reused).
    """
    game = _game_or_404(game_id)
    if request.method == "POST":
        round_id = ActionForm().round_id.data
        played = next((r for r in game.rounds if r.id == round_id), None)
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
    flash("Reopen the game to fix a round.", "error")
    return game, played, _to_game(game.id)


def _digest(entries, number, revision):
    text = json.dumps([[e.to_dict() for e in entries], number, revision], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _round_editor(game, played):
    """One screen for all teams: check (the engine's review), then save.

    The hidden ``revision`` is the game as the page was opened: a save is
    refused if the game changed since. ``checked`` is a digest of the entries,
    the round number and the revision the review showed, so "save" saves
    exactly what was reviewed, under the number and scores shown.
    """
    number = played.number if played else game.standings.next_round
    if request.method == "GET":
        form = round_form(game, entries=played.entries if played else None, number=number)
        form.revision.data = game.revision
        form.round_id.data = played.id if played else None
        return _render_round(game, played, form)
    form = round_form(game, formdata=request.form, number=number)
    action = request.form.get("action", "check")
    if "step" in request.form:
        name, _, delta = request.form["step"].rpartition(":")
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
                games.changes_since(get_db(), game.id, form.revision.data)
                if form.revision.data is not None
                else (),
            )
        )
        form.revision.data = game.revision
        form.checked.data = ""
        return _render_round(game, played, form, number, status=REFUSED)
    if not form.validate():
        return _render_round(game, played, form, number, status=REFUSED)
    entries = entries_from(form)
    problems = scoring.check_round(
        game.rules, entries, number, team_names=[t.name for t in game.teams], players=game.player_count
    )
    errors = [p for p in problems if p.level == "error"]
    for problem in errors:
        field_for(form, problem).errors.append(problem.message)
    if errors:
        return _render_round(game, played, form, number, status=REFUSED)
    digest = _digest(entries, number, game.revision)
    if action == "save" and form.checked.data == digest:
        return _save(game, played, number, entries)
    changed = action == "save"  # saved without checking these values: check them first
    form.checked.data = digest
    return _render_round(
        game,
        played,
        form,
        number,
        review=entries,
        changed=changed,
        warnings=[p for p in problems if p.level == "warning"],
    )


def _save(game, played, number, entries):
    db = get_db()
    try:
        if played:
            after = games.update_round(db, game.id, game.revision, played.id, entries, loaded=game)
        else:
            after = games.add_round(db, game.id, game.revision, number, entries, loaded=game)
    except (Conflict, NotFound) as refusal:
        _refused(refusal if isinstance(refusal, Conflict) else Conflict(str(refusal)))
        return _to_game(game.id)
    _print_later(after)
    if after.revision == game.revision:
        flash(f"Round {number} is unchanged: nothing to save.", "info")
    else:
        flash(f"Round {number} {'updated' if played else 'saved'}.", "success")
    return _to_game(game.id)  # the top: totals, meld minimums, the next round


def _render_round(game, played, form, number=None, *, status=200, review=None, warnings=(), changed=False):
    """The round screen; with ``review`` (the entries checked), the engine's
    standings as they would be with this round saved."""
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
    ), status


@bp.route("/<id:game_id>/rounds/<id:number>/delete", methods=["GET", "POST"])
def delete_round(game_id, number):
    """Ask, then delete a round (later rounds move up one)."""
    game, played, refused = _fixable(game_id, number)
    if refused:
        return refused
    form = ActionForm(revision=game.revision, round_id=played.id)
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
    form = ActionForm(revision=game.revision)
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
