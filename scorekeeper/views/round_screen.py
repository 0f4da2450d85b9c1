"""The round screen: its form, − / + and "Add up", the check (the engine's
review of the round before it is saved). Every page of it is a GET; saving
is ``rounds.py``'s.

Only "Save" writes, so only it is a POST that stays one. Every other button
(Check, − / +, Add up) posts the form and is sent to a GET of the same values
(post/redirect/get): every page of the round is a GET, so Back never meets a
page the browser must post again, and a reload shows it.

The hidden ``revision`` is the game as the page was opened: a save is refused
if the game changed since. ``checked`` is a digest of the entries, the round
number and the revision the review showed, so "save" saves exactly what was
reviewed, under the number and scores shown. The digest is an HMAC with the
app's secret key: only the check step can make one, so a save whose entries
match it is proven checked and is not checked again (``proven``).
"""

import hashlib
import hmac
import json
from urllib.parse import urlencode

from flask import abort, current_app, redirect, render_template, request, url_for

from .. import scoring
from ..forms.rounds import (
    add_up,
    all_fields,
    entries_from,
    entry_fields,
    field_for,
    posted_entries,
    round_form,
    step,
    summary_titles,
    team_fields,
)
from ..scoring.language import _
from .games import REFUSED, refuse_stale

# a round form's values in a URL: six teams with every field take under 8 KB
LONGEST_QUERY = 16 * 1024


def values_sent():
    """What the round form holds: posted, or in a GET's query (post/redirect/get)."""
    return request.form if request.method == "POST" else request.args


def page(game, played, values):
    """The round screen for ``values`` (none: the round as saved, or empty)."""
    number = played.number if played else game.standings.next_round
    saved = played.entries if played else None
    if not values:
        form = round_form(game, entries=saved, number=number, saved=saved, csrf=False)
        form.revision.data = game.revision
        form.round_id.data = played.id if played else None
        return render(game, played, form, fresh=True)
    form = round_form(game, formdata=values, number=number, saved=saved, csrf=False)
    action = values.get("action", "check")
    if "step" in values:
        name, _colon, delta = values["step"].rpartition(":")
        step(form, name, delta)
        return render(game, played, form, number)
    if action.startswith("add-"):
        target, _dash, team = action.partition("-")[2].partition("-")
        add_up(form, target, int(team) if team.isascii() and team.isdigit() and len(team) < 3 else -1)
        return render(game, played, form, number)
    if form.revision.data != game.revision:
        refuse_stale(
            game,
            form,
            _(
                "This game changed on another phone since you opened this page: "
                "check the round again before saving it."
            ),
        )
        return render(game, played, form, number, status=REFUSED)
    entries, problems = checked(game, form, number)
    if entries is None:
        return render(game, played, form, number, status=REFUSED)
    form.checked.data = digest(game, entries, number, game.revision)
    return render(
        game,
        played,
        form,
        number,
        review=entries,
        changed=values.get("changed") == "1",
        warnings=[p for p in problems if p.level == "warning"],
    )


def checked(game, form, number):
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


def to_editor(game, played, values, **changes):
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
        url = url_for("rounds.edit", game_id=game.id, number=played.number)
    else:
        url = url_for("rounds.new", game_id=game.id)
    return redirect(f"{url}?{query}", 303)


def digest(game, entries, number, revision):
    """What the check step signs: these entries for round ``number`` of this game at
    ``revision``, as an HMAC with the app's secret key (so no phone can make one)."""
    return signature([game.uid, [e.to_dict() for e in entries], number, revision])


def signature(value):
    """An HMAC of ``value`` (JSON) with the app's secret key: what only a check step can make."""
    text = json.dumps(value, sort_keys=True)
    key = current_app.secret_key
    key = key.encode() if isinstance(key, str) else key
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()[:32]


def proven(game, number, values):
    """The entries "Save" posted, when they are the very entries the check step
    reviewed for this round at the game's revision (the posted digest is theirs):
    they were checked then, so they are not checked again. Else None, and the
    save takes the long way (the round form, the engine's check). The
    transaction still refuses a revision changed since (``services.games``)."""
    sent = values.get("checked", "")
    if len(sent) != 32 or values.get("revision") != str(game.revision):
        return None
    entries = posted_entries(game.rules, len(game.teams), values, game.scores_only)
    if entries is None or not hmac.compare_digest(
        sent.encode(), digest(game, entries, number, game.revision).encode()
    ):
        return None
    return entries


def draft_key(game, played, number):
    """Where the phone keeps what is typed into this round (static/app.js)."""
    return f"{game.id}:fix-{played.id}" if played else f"{game.id}:round-{number}"


def render(
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
        # a tournament turn's victory points after it, where the rules ask for them (the engine's)
        victory_after=scoring.victory_points(
            game.rules.victory_points, game.rules.planned_rounds, s.running_totals[number - 1]
        )
        if review is not None
        else None,
        warnings=warnings,
        changed=changed,
        draft=draft_key(game, played, number),
        fresh=fresh,
    ), status
