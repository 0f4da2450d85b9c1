import hashlib
import json

from flask import Blueprint, abort, flash, jsonify, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectChoice

from .. import charts, games, rulesets, scoring
from ..db import get_db
from ..forms import (NewGameForm, all_fields, entries_from, field_for, leaf_fields, round_form,
                     team_fields)
from ..rules_form import fields_from_rules, fields_with_errors, rules_from_fields

bp = Blueprint("games", __name__, url_prefix="/games")


class ActionForm(FlaskForm):
    """A button that changes a game: CSRF, and the revision the page showed."""

    revision = HiddenField()


def _game_or_404(game_id):
    game = games.load_game(get_db(), game_id)
    if game is None:
        abort(404, description=f"There is no game {game_id}.")
    return game


def _to_game(game, anchor=None):
    return redirect(url_for("games.show", game_id=game.id, _anchor=anchor))


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Start a game: rule set (adjusted for this game if need be), teams, who deals first."""
    db = get_db()
    entries = rulesets.list_rule_sets(db)
    by_key = {e.key: e for e in entries}
    if request.method == "GET":
        entry = by_key.get(request.args.get("rules", ""), entries[0])
        form = NewGameForm(data={"rules_key": entry.key})
        return _new_game_page(_with_rules_of(form, entry), entries)
    form = NewGameForm()
    entry = by_key.get(form.rules_key.data, entries[0])
    if request.form.get("action") == "load" or form.rules_from.data != entry.key:
        # another rule set was picked: show its values, start nothing yet
        return _new_game_page(_with_rules_of(form, entry), entries, loaded=entry)
    form.rules_key.choices = _choices(entries)
    form.validate()  # every field on its own; the checks below add what needs the whole form
    rules = rules_from_fields(form.rules)
    teams = _teams_from(form)
    if form.errors or rules is None or teams is None:
        return _new_game_page(form, entries, status=422)
    game_id = games.create_game(db, rules, entry.key, teams, form.first_dealer.data)
    flash("Game started. Good luck!", "success")
    return redirect(url_for("games.show", game_id=game_id))


def _choices(entries):
    return [SelectChoice(e.key, e.rules.name) for e in entries]


def _with_rules_of(form, entry):
    """The form with its rule values replaced by this rule set's (teams kept)."""
    fresh = NewGameForm(formdata=None, data={"rules": fields_from_rules(entry.rules)})
    form._fields["rules"] = form.rules = fresh.rules
    form.rules_key.data = form.rules_from.data = entry.key
    return form


def _new_game_page(form, entries, status=200, loaded=None):
    form.rules_key.choices = _choices(entries)
    entry = next(e for e in entries if e.key == form.rules_key.data)
    return render_template(
        "games/new.html", form=form, entry=entry, loaded=loaded,
        rule_problems=fields_with_errors(form.rules),
        players=[p["name"] for p in games.list_players(get_db())]), status


def _teams_from(form):
    """(name, players) per team, or None after putting messages next to fields."""
    teams, seen = [], {}
    for i, entry in enumerate(form.teams):
        fields = entry.form
        names = fields.player_names()
        if not names:
            if fields.name.data and fields.name.data.strip():
                fields.player_1.errors.append("Add at least one player, or clear the team name.")
            continue
        for f in (fields.player_1, fields.player_2, fields.player_3):
            key = games.clean_name(f.data).casefold()
            if not key:
                continue
            if key in seen:
                team, name = seen[key]
                f.errors.append(f"{name} is already on team {team + 1}.")
            else:
                seen[key] = (i, games.clean_name(f.data))
        teams.append((fields.name.data or "", names))
    if len(teams) < 2:
        form.teams[0].form.player_1.errors.append(
            "A game needs at least two teams, each with a player.")
    dealer = games.clean_name(form.first_dealer.data).casefold()
    if dealer and dealer not in seen:
        form.first_dealer.errors.append("Who deals first must be one of this game's players.")
    if any(f.errors for entry in form.teams for f in entry.form) or form.first_dealer.errors:
        return None
    return teams


@bp.get("/<int:game_id>")
def show(game_id):
    """Show a game: standings, meld minimums, who deals, every round."""
    game = _game_or_404(game_id)
    action = ActionForm(revision=game.revision)
    return render_template("games/show.html", game=game, s=game.standings,
                           open=games.is_open(game), action=action, chart=_progress_chart(game))


def _progress_chart(game):
    """Each team's running total after each round (the engine's), as a chart."""
    s = game.standings
    if not s.running_totals:
        return None
    names = [team.name for team in game.teams]
    leader = ", ".join(names[w] for w in s.winners) if s.winners else None
    description = (f"Running totals after each of {len(s.running_totals)} rounds. "
                   + "; ".join(f"{name}: {total:,}" for name, total in zip(names, s.totals))
                   + (f". Winner: {leader}." if leader else "."))
    return charts.line_chart(
        "Score by round", description, [str(r.number) for r in game.rounds],
        [(name, [totals[i] for totals in s.running_totals]) for i, name in enumerate(names)])


@bp.get("/<int:game_id>.json")
def export(game_id):
    """The game as JSON: rules, teams, rounds, scores, standings."""
    return jsonify(games.game_json(_game_or_404(game_id)))


@bp.route("/<int:game_id>/rounds/new", methods=["GET", "POST"])
def new_round(game_id):
    """Enter the next round."""
    game = _game_or_404(game_id)
    if not games.is_open(game) or game.finished:
        flash("This game is finished: there is no next round to enter.", "error")
        return _to_game(game)
    return _round_editor(game, None)


@bp.route("/<int:game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id, number):
    """Fix a saved round."""
    game, played, refused = _fixable(game_id, number)
    return refused or _round_editor(game, played)


def _fixable(game_id, number):
    """(game, round, None) when the round can be fixed; else a redirect as the third."""
    game = _game_or_404(game_id)
    played = game.round(number)
    if played is None:
        abort(404, description=f"This game has no round {number}.")
    if games.is_open(game):
        return game, played, None
    flash("Reopen the game to fix a round.", "error")
    return game, played, _to_game(game)


def _digest(entries):
    text = json.dumps([e.to_dict() for e in entries], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _round_editor(game, played):
    """One screen for all teams: check (the engine's review), then save.

    The hidden ``version`` pins what is being changed: the round number for a
    new round, the saved version for an edit, so a round saved meanwhile on
    another phone is never overwritten.
    """
    if request.method == "GET":
        form = round_form(game, entries=played.entries if played else None)
        form.version.data = str(played.version if played else game.standings.next_round)
        return _render_round(game, played, form)
    form = round_form(game, formdata=request.form)
    number = played.number if played else _expected_number(form, game)
    step = request.form.get("step", "")
    action = request.form.get("action", "check")
    if step:
        _step(form, step)
        return _render_round(game, played, form, number)
    if action.startswith("add-"):
        _add_up(form, action)
        return _render_round(game, played, form, number)
    if not form.validate():
        return _render_round(game, played, form, number, status=422)
    entries = entries_from(form)
    problems = scoring.check_round(game.rules, entries, number, team_names=[t.name for t in game.teams])
    errors = [p for p in problems if p.level == "error"]
    for problem in errors:
        field_for(form, problem).errors.append(problem.message)
    if errors:
        return _render_round(game, played, form, number, status=422)
    digest = _digest(entries)
    if action == "save" and form.checked.data == digest:
        return _save(game, played, number, entries, form)
    changed = action == "save"  # saved without checking these values: check them first
    form.checked.data = digest
    return _render_round(game, played, form, number, review=entries, changed=changed,
                         warnings=[p for p in problems if p.level == "warning"])


def _expected_number(form, game):
    """The round number this form was opened for (saving checks it is still next)."""
    try:
        return min(max(int(form.version.data), 1), game.standings.next_round)
    except (TypeError, ValueError):
        return game.standings.next_round


def _save(game, played, number, entries, form):
    db = get_db()
    try:
        if played:
            after = games.update_round(db, game, number, entries, int(form.version.data))
        else:
            after = games.add_round(db, game, entries, number)
    except games.Conflict as conflict:
        flash(str(conflict), "error")
        return _to_game(game)
    flash(f"Round {number} {'updated' if played else 'saved'}.", "success")
    return _to_game(after)  # the top: totals, meld minimums, the next round


def _step(form, step):
    """A − or + button: add or take one, never below zero. Nothing is saved."""
    name, _, delta = step.rpartition(":")
    field = leaf_fields(form).get(name)
    if field is None or delta not in ("1", "-1"):
        return
    value = max(0, (field.data or 0) + int(delta))
    field.data, field.raw_data = value, [str(value)]


def _add_up(form, action):
    """The card-count helper's "Add up": the engine turns counts into points."""
    _, target, team = action.split("-", 2)
    teams = dict(team_fields(form))
    if target not in ("melded", "left") or not team.isdigit() or int(team) not in teams:
        return
    fields = teams[int(team)]
    counts, ok = {}, True
    for i, tier in enumerate(scoring.value_tiers(form.rules)):
        f = getattr(fields, f"{target}_count_{i}")
        if not f.validate(form):
            ok = False
        counts[tier.ranks[0]] = f.data or 0
    if ok:
        points = scoring.card_points(form.rules, counts)
        field = fields.melded_points if target == "melded" else fields.unplayed_points
        field.data, field.raw_data = points, [str(points)]


def _render_round(game, played, form, number=None, *, status=200, review=None, warnings=(),
                  changed=False):
    """The round screen; with ``review`` (the entries checked), the engine's
    standings as they would be with this round saved."""
    number = number or (played.number if played else game.standings.next_round)
    rounds = [r.entries for r in game.rounds]
    if review is not None:
        rounds = rounds[:number - 1] + [review] + rounds[number:]
    # every number below is the engine's: nothing is added up here
    s = scoring.standings(game.rules, rounds, teams=len(game.teams))
    minimums = s.meld_minimums[number - 1] if number <= len(rounds) else s.next_meld_minimums
    return render_template(
        "games/round.html", game=game, played=played, form=form, number=number,
        fields=all_fields(form),
        teams=team_fields(form), tiers=scoring.value_tiers(game.rules), minimums=minimums,
        books_needed=scoring.books_to_go_out(game.rules, number), dealer=game.dealer(number),
        review=s.round_scores[number - 1] if review is not None else None,
        totals_after=s.running_totals[number - 1] if review is not None else None,
        warnings=warnings, changed=changed), status


@bp.route("/<int:game_id>/rounds/<int:number>/delete", methods=["GET", "POST"])
def delete_round(game_id, number):
    """Ask, then delete a round (later rounds move up one)."""
    game, played, refused = _fixable(game_id, number)
    if refused:
        return refused
    form = ActionForm(revision=played.version)
    if form.validate_on_submit():
        try:
            games.delete_round(get_db(), game, number, int(form.revision.data))
        except (games.Conflict, ValueError) as conflict:
            flash(str(conflict), "error")
            return _to_game(game)
        flash(f"Round {number} deleted.", "success")
        return _to_game(game)
    return render_template("games/delete_round.html", game=game, played=played, form=form,
                           scores=game.standings.round_scores[number - 1])


@bp.route("/<int:game_id>/end", methods=["GET", "POST"])
def end(game_id):
    """Ask, then end the game here; the highest total wins."""
    game = _game_or_404(game_id)
    form = ActionForm(revision=game.revision)
    if game.finished:
        return _to_game(game, "result")
    if form.validate_on_submit():
        return _change(game, games.end_game, form, "Game over.", "result")
    return render_template("games/end.html", game=game, s=game.standings, form=form)


@bp.post("/<int:game_id>/reopen")
def reopen(game_id):
    """Reopen a finished game to fix a round."""
    game = _game_or_404(game_id)
    form = ActionForm()
    if not form.validate_on_submit():
        abort(400, description="That button had expired. Please try again.")
    return _change(game, games.reopen_game, form, "Game reopened: fix any round, then save it.")


def _change(game, change, form, message, anchor=None):
    try:
        change(get_db(), game, int(form.revision.data or -1))
    except games.Conflict as conflict:
        flash(str(conflict), "error")
        return _to_game(game)
    flash(message, "success")
    return _to_game(game, anchor)
