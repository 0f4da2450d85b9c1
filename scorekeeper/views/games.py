"""A game: starting one, its screen, when it was played, ending and reopening it.

Its rounds are ``rounds.py``; typing in its paper sheet, ``paper.py``.
"""

import functools

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

from .. import scoring
from ..exchange import bgstats
from ..exchange.jsonfile import game_json
from ..forms.games import ActionForm, NewGameForm, PlayedForm
from ..forms.photos import PhotoForm
from ..forms.rule_values import fields_from_rules, fields_with_errors, rules_from_fields, words_typed
from ..forms.rule_words import speak
from ..printing import ahead
from ..scoring.language import _, ngettext
from ..scoring.words import join
from ..services import Conflict, NotFound, colours, deleted, game_model, games, players, ratings, rulesets
from ..storage import photos
from ..storage.db import get_db
from ..web import charts, formatting, language
from . import found, posted_or_filled
from .share import share_url

bp = Blueprint("games", __name__, url_prefix="/games")

# A refused form is shown again with this status, so tests and tools can tell
# it from a first visit; browsers show the page all the same.
REFUSED = 422
# The session's note of the last round this phone saved: for "Undo round N",
# for Back after a save (the game, not the round's form), and to clear its draft.
SAVED = "saved"


def game_or_404(game_id, **options):
    """The game, or a 404: a page that says it was deleted (when, and Restore) when it was."""
    db = get_db()
    game = game_model.load_game(db, game_id, remember=True, **options)
    if game is None and game_model.deleted_when(db, game_id) is not None:
        abort(_deleted_page(game_model.load_game(db, game_id, deleted=True)))
    return found(game, _("There is no game %(id)s.", id=game_id))


def _deleted_page(game):
    """A deleted game's own address (a phone that had it open, a link): what it was, when it
    was deleted and until when it can be restored, with Restore; nothing it asked was done."""
    page = render_template(
        "games/gone.html",
        game=game,
        action=ActionForm(revision=game.revision),
        gone_at=deleted.gone_at(game.deleted_at),
        posted=request.method == "POST",
    )
    response = current_app.make_response((page, 404))
    response.headers["Cache-Control"] = "no-store"
    return response


def to_game(game_id, anchor=None):
    # 303: after a POST, the browser GETs the game (Back never re-posts a form)
    return redirect(url_for("games.show", game_id=game_id, _anchor=anchor), 303)


def print_later(game):
    """Render the changed game's sheet in the background, so that "Print" finds it ready."""
    if game.revision:
        ahead.render_later(current_app._get_current_object(), game)


def flash_refusal(refusal):
    """Flash a refusal (a ``Conflict``, with what changed meanwhile, or a ``NotFound``)."""
    flash(str(refusal), "error")
    for change in getattr(refusal, "changes", ()):
        flash(_("Meanwhile: %(change)s", change=change.summary), "info")


def refuse_stale(game, form, said):
    """The game changed since the phone's page was opened (``form.revision``): say so
    (``said``: that, and what to check anew) with what changed; the form takes the game's
    revision now and its Check is undone, what was typed stays."""
    seen = form.revision.data
    changes = game_model.changes_since(get_db(), game.id, seen) if seen is not None else ()
    flash_refusal(Conflict(said, changes))
    form.revision.data, form.checked.data = game.revision, ""


@bp.route("/new", methods=["GET", "POST"])
def new():
    """Start a game: rule set and its variant (adjusted for this game if need be), teams, who deals first."""
    db = get_db()
    entries = rulesets.list_rule_sets(db)
    by_key = {e.key: e for e in entries}
    if request.method == "GET":
        entry = by_key.get(request.args.get("rules", "")) or by_key.get(rulesets.latest_key(db), entries[0])
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
    game = games.create_game(
        db,
        rules,
        entry.key,
        form.teams_data(),
        form.first_dealer.data,
        played_at=form.played_at(),
        paper=form.paper(),
    )
    if game.paper is None:
        flash(_("Game started. Good luck!"), "success")
        return to_game(game.id)
    if game.scores_only or game.played_at != game.created_at:  # played already: its sheet comes in
        flash(_("Game added: type in its sheet."), "success")
        return redirect(url_for("paper.sheet", game_id=game.id), 303)
    flash(_("Game started on paper: print its sheet, and type it in once played."), "success")
    return to_game(game.id)


def _chosen(form):
    """The rule set key the form picks: the preset's variant when it has variants."""
    variants = scoring.VARIANTS.get(form.rules_key.data, ())
    keys = [v.key for v in variants]
    if form.variant.data in keys:
        return form.variant.data
    return form.rules_key.data


def _choices(entries):
    """Presets and house rules; a preset's variants are its own second choice."""
    return [SelectChoice(e.key, e.rules.title) for e in entries if scoring.variant_of(e.key) in (None, e.key)]


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
    for _name, names in teams:
        known = [players.find_player(db, name) for name in names]
        lineup.append([p.id if p else None for p in known])
    names = [name or " & ".join(members) for name, members in teams]
    return names, ratings.win_chances(db, lineup)


def _new_game_page(form, entries, status=200, loaded=None, chances=None):
    form.rules_key.choices = _choices(entries)
    form.variant.choices = [
        SelectChoice(v.key, _(v.label)) for v in scoring.VARIANTS.get(form.rules_key.data, ())
    ]
    entry = next(e for e in entries if e.key == form.rules_from.data)
    words = words_typed(form.rules, entry.rules.say)  # the rule set's, or as typed
    speak(form.rules, words)
    return render_template(
        "games/new.html",
        form=form,
        entry=entry,
        words=words,
        loaded=loaded,
        rule_problems=fields_with_errors(form.rules),
        players=[p.name for p in players.list_players(get_db())],
        chances=chances,
    ), status


@bp.get("/<id:game_id>")
def show(game_id):
    """Show a game: standings, meld minimums, who deals, every round, its share link."""
    game = game_or_404(game_id, changes=True)
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
            bgstats_link=bgstats.play_link(game) if game.standings.finished and game.rounds else None,
            photo_upload=PhotoForm(formdata=None) if game.paper and not game.scores_only else None,
            photos=photos.numbers(current_app.config["PHOTOS"], game.uid),
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


def _progress_chart(game):
    """Each team's running total after each round (the engine's), as a chart."""
    s = game.standings
    if not s.running_totals:
        return None
    names = [team.name for team in game.teams]
    totals = "; ".join(
        _("%(team)s: %(total)s", team=name, total=formatting.number(total))
        for name, total in zip(names, s.totals)
    )
    # Translators: a chart's description; the count is the number of rounds
    description = ngettext(
        "Running totals after each of %(num)s rounds. %(totals)s.",
        "Running totals after each of %(num)s rounds. %(totals)s.",
        len(s.running_totals),
        totals=totals,
    )
    if len(s.winners) == 1:
        winner = game.teams[s.winners[0]]
        # Translators: after a chart's description; the count is how many players the winning team has
        # (English says Winner either way)
        description += " " + ngettext(
            "Winner: %(leader)s.", "Winner: %(leader)s.", len(winner.players), leader=winner.name
        )
    elif s.winners:
        description += " " + _("A tie between %(teams)s.", teams=join([names[w] for w in s.winners]))
    return charts.line_chart(
        _("Score by round"),
        description,
        [str(r.number) for r in game.rounds],
        [
            (name, [totals[i] for totals in s.running_totals], colour)
            for i, (name, colour) in enumerate(zip(names, colours.of_teams(get_db(), game)))
        ],
    )


@bp.get("/<id:game_id>.json")
@language.english
def export(game_id):
    """The game as JSON: rules, teams, rounds, scores, standings."""
    return jsonify(game_json(game_or_404(game_id)))


@bp.route("/<id:game_id>/end", methods=["GET", "POST"])
def end(game_id):
    """Ask, then end the game here; the highest total wins."""
    game = game_or_404(game_id)
    form = posted_or_filled(ActionForm, revision=game.revision)
    if game.finished and not game.is_open:
        return to_game(game.id, "result")
    if form.validate_on_submit():
        return _change(game, games.end_game, form, _("Game over."), "result")
    return render_template("games/end.html", game=game, s=game.standings, form=form)


@bp.route("/<id:game_id>/played", methods=["GET", "POST"])
def played(game_id):
    """Correct the day and time the game was played (it moves to that night and year)."""
    game = game_or_404(game_id)
    form = PlayedForm() if request.method == "POST" else PlayedForm(formdata=None, revision=game.revision)
    if request.method == "GET":
        form.show_played(game.played_at)
    elif form.validate_on_submit():
        return _change(
            game,
            functools.partial(games.change_played, played_at=form.played_at() or games.now()),
            form,
            _("Date corrected."),
        )
    status = REFUSED if request.method == "POST" else 200
    return render_template("games/played.html", game=game, form=form), status


@bp.post("/<id:game_id>/reopen")
def reopen(game_id):
    """Reopen a finished game to fix a round."""
    game = game_or_404(game_id)
    form = ActionForm()
    if not form.validate_on_submit():
        flash(_("That button had expired: nothing was changed. Please try again."), "error")
        return to_game(game.id)
    return _change(game, games.reopen_game, form, _("Game reopened: fix any round, then save it."))


def _change(game, change, form, message, anchor=None):
    try:
        after = change(get_db(), game.id, form.revision.data, loaded=game)
    except (Conflict, NotFound) as refusal:
        flash_refusal(refusal)
        return to_game(game.id)
    print_later(after)
    flash(message, "success")
    return to_game(game.id, anchor)
