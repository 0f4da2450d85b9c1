"""Typing in a paper sheet: every round of a game played on paper, on one page.

The page shows a column per round (``forms.paper``), typed down each team's lines as
the sheet reads. "Check the sheet" puts every round through the engine and its
checks, as the round form does: an error stops its round, with the message beside
the round's number and the box; warnings are listed to confirm; a round score or a
running total the sheet added up differently is pointed at beside its box, with the
engine's numbers. "Save the game" saves exactly what was
checked (the check signs it, as the round form's does), every round in one
transaction (``services.rounds.add_rounds``). "Add a round" and "Remove the last
round" show one column more or fewer, keeping what was typed; nothing is saved.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field

from flask import Blueprint, flash, render_template, request

from .. import scoring
from ..forms.paper import (
    SCORE,
    SHEET_SCORE,
    SHEET_TOTAL,
    box_for,
    paper_form,
    round_entries,
    rounds_shown,
    typed,
)
from ..forms.photos import PhotoForm
from ..names import name_key
from ..scoring.language import _
from ..services import Conflict, NotFound, alike, game_model, hand
from ..services import rounds as round_changes
from ..storage.db import get_db
from . import photos as photo_views
from .games import REFUSED, flash_refusal, game_or_404, print_later, refuse_stale, to_game
from .round_screen import signature

bp = Blueprint("paper", __name__, url_prefix="/games")
# the yes-or-no lines: "1: yes" beside them
FLAGS = frozenset(f.name for f in scoring.ENTRY_FIELDS if f.kind == "flag")


@dataclass
class Column:
    """One round of the page as checked: its entries, what the engine made of them."""

    number: int
    entries: list | None = None  # TeamRound per team; None: left empty at the end
    sheet: list = field(default_factory=list)  # per team the sheet's (round score, total), None: not typed
    problems: list = field(default_factory=list)  # (level, message) about the round as a whole
    scores: list | None = None  # the engine's round score per team
    totals: list | None = None  # the total after it per team
    differs: list = field(default_factory=list)  # per team: the sheet's score differs from the engine's
    notes: dict = field(default_factory=dict)  # a box's id: the warning beside it (a sum that differs)


@bp.route("/<id:game_id>/paper", methods=["GET", "POST"])
def sheet(game_id):
    """Type in the game's paper sheet, every round on one page."""
    game = game_or_404(game_id)
    action = request.form.get("action", "check")
    if action == "save" and _saved_already(game, paper_form(game, _columns_posted(game))):
        flash(_("The sheet was saved already: here is the game."), "success")
        return to_game(game.id)
    ended_after = game.standings.ended_after
    if ended_after is not None:  # reopened or not: no round comes after the one that ended it
        flash(
            _(
                "Its rules ended this game after round %(number)s: there is no round after it "
                "to type in. A round is fixed from the game’s page.",
                number=ended_after,
            ),
            "error",
        )
        return to_game(game.id)
    if not game.is_open or game.finished:  # ended by the table: reopened, it takes more rounds
        flash(_("This game is finished: reopen it to type more rounds in."), "error")
        return to_game(game.id)
    if request.method == "GET":
        asked = request.args.get("rounds", "")
        count = int(asked) if asked.isascii() and asked.isdigit() and len(asked) < 4 else None
        read, number = photo_views.asked(game, request.args.get("photo", ""))
        if read is not None:
            last = max(read["rounds"], default=0)
            if last < game.standings.next_round:  # typed in since the photo was read
                flash(photo_views.typed_already(read), "error")
                return to_game(game.id)
            count = last - game.standings.next_round + 1
        form = paper_form(game, rounds_shown(game.rules, len(game.rounds), count), posted=False)
        form.revision.data, form.shown.data = game.revision, len(form.rounds)
        if read is not None:
            photo_views.fill(form, read)
            form.photo.data = number
        return _page(game, form, fresh=read is None)
    count = _columns_posted(game)
    if action in ("more", "fewer"):  # a column more or fewer: nothing is checked or saved
        count = rounds_shown(game.rules, len(game.rounds), count + (1 if action == "more" else -1))
    form = paper_form(game, count)
    form.shown.data = count
    if action in ("more", "fewer"):
        form.checked.data = ""
        return _page(game, form)
    if form.revision.data != game.revision:
        refuse_stale(
            game,
            form,
            _("This game changed on another phone since you opened this page: check the sheet again."),
        )
        return _page(game, form, status=REFUSED)
    columns, ok = _check(game, form)
    if not ok:
        form.checked.data = ""
        return _page(game, form, columns, status=REFUSED)
    typed_rounds = [c.entries for c in columns if c.entries is not None]
    proof = _digest(game, typed_rounds, form.ended.data)
    if action == "save" and hmac.compare_digest(request.form.get("checked", "").encode(), proof.encode()):
        # the photo's digits, read from its files before the write lock is taken
        learnt = photo_views.samples_saved(game, form)
        try:
            after = round_changes.add_rounds(
                get_db(),
                game.id,
                game.revision,
                form.first,
                typed_rounds,
                end=form.ended.data,
                loaded=game,
                also=(lambda db: hand.keep(db, learnt)) if learnt else None,
            )
        except (Conflict, NotFound) as refusal:
            flash_refusal(refusal)
            return to_game(game.id)
        print_later(after)
        last = form.first + len(typed_rounds) - 1
        if last == form.first:
            saved = _("Round %(number)s saved from the paper sheet.", number=last)
        else:
            saved = _("Rounds %(first)s–%(last)s saved from the paper sheet.", first=form.first, last=last)
        flash(saved, "success")
        return to_game(game.id, "result" if after.finished else None)
    form.checked.data = proof
    warnings = [
        (c.number, message)
        for c in columns
        for message in [m for level, m in c.problems if level == "warning"] + list(c.notes.values())
    ]
    like = _alike(game, columns)
    return _page(game, form, columns, review=True, warnings=warnings, again=action == "save", like=like)


def _alike(game, columns):
    """Another game of the history with this one's night, players and totals once these
    rounds are in (the same sheet typed in twice?), or None."""
    totals = next((c.totals for c in reversed(columns) if c.totals), None)
    if totals is None:
        return None
    players = [[name_key(p.name) for p in team.players] for team in game.teams]
    wanted = {game.id: (game.night, alike.signature(players, totals))}
    return alike.find(get_db(), wanted, leave_out={game.id}).get(game.id)


def _columns_posted(game):
    """How many round columns the posted page showed (kept within bounds)."""
    shown = paper_form(game, 1).shown.data  # the hidden field alone is read
    return rounds_shown(game.rules, len(game.rounds), shown or 1)


def _saved_already(game, form):
    """Whether this save was made already: the same rounds, typed over the revision the
    page carries, are what the game's next change saved (the phone never had the answer:
    the Wi-Fi dropped, the page was reloaded). Then the game is shown, nothing saved twice."""
    revision = form.revision.data
    if revision is None or revision >= game.revision or not form.validate():
        return False
    logged = game_model.logged_after(get_db(), game.id, revision + 1, "typed")
    if logged is None:
        return False
    typed_rounds = []
    for lines in form.rounds:
        if any(typed(t.form) for t in lines.form.teams):
            typed_rounds.append([e.to_dict() for e in round_entries(form, lines.form)[0]])
    return typed_rounds == logged


def _check(game, form):
    """(a ``Column`` per round shown, whether they can be saved): every typed round through
    the engine's checks, each problem put beside its round and its box."""
    valid = form.validate()  # each box a whole number within its bounds; the CSRF token
    names = [team.name for team in game.teams]
    columns = [Column(form.first + i) for i in range(len(form.rounds))]
    filled = [any(typed(t.form) for t in lines.form.teams) for lines in form.rounds]
    last = max((i for i, f in enumerate(filled) if f), default=-1)
    if last < 0:
        form.form_errors.append(_("Type at least one round of the sheet."))
        return columns, False
    ok = valid
    for i in range(last + 1):
        column, lines = columns[i], form.rounds[i].form
        if not filled[i]:
            column.problems.append(
                ("error", _("Round %(number)s is empty: rounds are saved in order.", number=column.number))
            )
            ok = False
            continue
        if not valid:
            continue  # a box that is no number: said beside it
        column.entries, column.sheet = round_entries(form, lines)
        if game.scores_only:
            for team in lines.teams:
                box = team.form[SCORE]
                if not typed([box]):
                    box.errors.append(_("Type the round's score (0 if it scored nothing)."))
                    ok = False
        problems = scoring.check_round(
            game.rules, column.entries, column.number, team_names=names, players=game.player_count
        )
        for p in problems:
            box = box_for(form, column.number, p) if p.level == "error" else None
            if box is not None:
                box.errors.append(p.message)
            column.problems.append((p.level, p.message))
        ok = ok and not any(p.level == "error" for p in problems)
    if not ok:
        return columns, False
    typed_rounds = [c.entries for c in columns[: last + 1]]
    # every number below is the engine's: nothing is added up here
    s = scoring.standings(game.rules, [r.entries for r in game.rounds] + typed_rounds, teams=len(game.teams))
    if s.ended_after is not None and s.ended_after < form.first + last:
        after = columns[s.ended_after - form.first + 1]
        after.problems.append(
            (
                "error",
                _(
                    "These rules ended the game after round %(ended)s: round %(number)s "
                    "can't be added. Remove the rounds after it.",
                    ended=s.ended_after,
                    number=after.number,
                ),
            )
        )
        return columns, False
    for column in columns[: last + 1]:
        i = column.number - 1
        column.scores = [score.total for score in s.round_scores[i]]
        column.totals = s.running_totals[i]
        before = s.running_totals[i - 1] if i else None  # the totals the round adds to
        teams = form.rounds[column.number - form.first].form.teams
        column.differs = [
            written is not None and written != engine
            for (written, _total), engine in zip(column.sheet, column.scores)
        ]
        for t, ((score, total), team) in enumerate(zip(column.sheet, teams)):
            if column.differs[t]:
                column.notes[team.form[SHEET_SCORE].id] = _(
                    "%(team)s: the sheet says %(sheet)s; these rules make it "
                    "%(score)s, which is what is saved.",
                    team=names[t],
                    sheet=format(score, ","),
                    score=format(column.scores[t], ","),
                )
            if total is not None and total != column.totals[t]:
                column.notes[team.form[SHEET_TOTAL].id] = _total_differs(
                    names[t], total, None if before is None else before[t], column.scores[t], column.totals[t]
                )
    return columns, True


def _total_differs(team, sheet, before, score, total):
    """What a running total the sheet added up otherwise gets beside it: the engine's total
    before the round, the round's score and the total they make (``before`` None: round 1)."""
    if before is None:
        return _(
            "%(team)s: the sheet says a total of %(sheet)s; these rules make it %(total)s.",
            team=team,
            sheet=format(sheet, ","),
            total=format(total, ","),
        )
    if score < 0:
        return _(
            "%(team)s: the sheet says a total of %(sheet)s; %(before)s − %(score)s make %(total)s.",
            team=team,
            sheet=format(sheet, ","),
            before=format(before, ","),
            score=format(abs(score), ","),
            total=format(total, ","),
        )
    return _(
        "%(team)s: the sheet says a total of %(sheet)s; %(before)s + %(score)s make %(total)s.",
        team=team,
        sheet=format(sheet, ","),
        before=format(before, ","),
        score=format(score, ","),
        total=format(total, ","),
    )


def _digest(game, rounds, ended):
    """What the check signs: these rounds typed from this game's next round at its revision."""
    return signature(
        [
            game.uid,
            game.revision,
            game.standings.next_round,
            [[e.to_dict() for e in r] for r in rounds],
            ended,
        ]
    )


def _page(
    game, form, columns=None, *, status=200, review=False, warnings=(), again=False, fresh=False, like=None
):
    """The page; ``fresh``: the form as the app has it (a draft kept on the phone is offered over it)."""
    columns = columns or [Column(form.first + i) for i in range(len(form.rounds))]
    boxes = [f for lines in form.rounds for t in lines.form.teams for f in t.form]
    titles = {}
    for i, lines in enumerate(form.rounds):
        for t, team in enumerate(lines.form.teams):
            for box in team.form:
                titles[box.id] = _(
                    "Round %(number)s · %(team)s · %(line)s",
                    number=form.first + i,
                    team=game.teams[t].name,
                    line=box.label.text,
                )
    typed_count = sum(1 for c in columns if c.entries is not None)
    read, number = photo_views.asked(game, form.photo.data)
    from_photo = photo_views.boxes_shown(game, form, read, number) if read is not None else {}
    # the first box the reader marked takes the focus (not once a check has something to say)
    marked = [box.id for box in boxes if from_photo.get(box.id, (None, None))[1]]
    focus = marked[0] if marked and not review and not any(box.errors for box in boxes) else None
    return render_template(
        "paper/sheet.html",
        game=game,
        form=form,
        columns=columns,
        heads=[_round_head(game, c.number) for c in columns],
        boxes=boxes,
        titles=titles,
        notes={box: message for c in columns for box, message in c.notes.items()},
        review=review,
        totals=next((c.totals for c in reversed(columns) if c.totals), None),
        typed_count=typed_count,
        warnings=warnings,
        again=again,
        can_add=rounds_shown(game.rules, len(game.rounds), len(form.rounds) + 1) > len(form.rounds),
        values={name: value for name, _, value in form.lines},
        flags=FLAGS,
        fresh=fresh,
        alike=like,
        photo_upload=PhotoForm(formdata=None),
        photo=number,
        read=read,
        from_photo=from_photo,
        marked=len(marked),
        focus=focus,
    ), status


def _round_head(game, number):
    """What a round asks, as its head on the sheet: the books to go out, the first meld's."""
    return (
        scoring.books_to_go_out(game.rules, number),
        scoring.first_meld_books(game.rules, number),
    )
