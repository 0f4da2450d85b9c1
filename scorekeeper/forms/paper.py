"""Typing in a paper sheet: a column per round, in each the sheet's lines for each team.

The lines are the sheet's own (``printing.layout``, the sheet's one description: books
of each kind, then each entry the rules score, then the round score and the running
total the family added up), in the printed order, so the eye goes down the paper and
the thumb down the page. Every box is a whole number typed on the phone's keypad; a
yes-or-no line (went out, went out concealed, the first meld's books) is yes for any
number but 0, so a tick written as 1 or the bonus written as 100 both read as yes.
The sheet's round score and total, where typed, are compared with the engine's and
never saved; either may be left empty. A game kept as its scores alone has one box per
team and round: that score.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField

from ..printing import layout
from ..recent import PerObject
from ..scoring import ENTRY, ENTRY_FIELDS, MAX_BOOKS, MAX_PAPER_SCORE, MAX_ROUNDS, TeamRound
from ..scoring.language import _, language
from .fields import RevisionField, SignedNumberField, WholeNumberField

#: a round's score and the running total as the sheet added them up (compared with the
#: engine's, never saved)
SHEET_SCORE, SHEET_TOTAL = layout.ROUND_SCORE, layout.TOTAL
SHEET_SUMS = (SHEET_SCORE, SHEET_TOTAL)
#: the one box of a round kept as its score alone
SCORE = "score"


def rounds_shown(rules, played, asked=None):
    """How many round columns the page shows: as asked (kept within bounds: no more than
    the rules still plan), else the rounds the rules still plan, else four (a game to a
    target: "Add a round" adds more)."""
    left = MAX_ROUNDS - played  # the engine's bound on a game
    planned = rules.planned_rounds and rules.planned_rounds > played
    if planned:
        left = min(left, rules.planned_rounds - played)
    if asked is not None:
        return max(1, min(asked, left))
    return left if planned else max(1, min(4, left))


def team_lines(rules, scores_only):
    """(field name, label, points per unit or None) a team has in each round, in the sheet's order."""
    if scores_only:
        return [(SCORE, _("Round score"), None)]
    return [(line.name, line.label, line.per) for line in layout.typed_lines(rules)]


def paper_form(game, rounds, *, posted=True):
    """The page's form for this game: ``rounds`` columns from its next round on, as the
    phone posted it (``posted``), or empty for the page."""
    shape = (len(game.teams), rounds, game.scores_only)
    # a class per language too: its labels are said in the reader's
    PaperForm = _CLASSES.get(game.rules, lambda: _build(game.rules, *shape), *shape, language())
    form = PaperForm() if posted else PaperForm(formdata=None)
    form.rules, form.scores_only = game.rules, game.scores_only
    form.first = game.standings.next_round
    form.lines = team_lines(game.rules, game.scores_only)
    return form


_CLASSES = PerObject(32)


def _build(rules, team_count, round_count, scores_only):
    class TeamLines(Form):
        pass

    for name, label, _value in team_lines(rules, scores_only):
        if name == SCORE:
            field = SignedNumberField(label, minimum=-MAX_PAPER_SCORE, maximum=MAX_PAPER_SCORE, default=None)
        elif name in SHEET_SUMS:  # the family's own sums: may be negative, may be left empty
            field = SignedNumberField(label, minimum=-MAX_PAPER_SCORE, maximum=MAX_PAPER_SCORE)
        elif name.startswith("book_"):
            field = WholeNumberField(label, maximum=MAX_BOOKS, default=None)
        elif ENTRY[name].kind == "flag":
            # a tick (1) or the bonus written beside it: any number but 0 is yes
            field = WholeNumberField(label, maximum=1_000_000, default=None)
        else:
            field = WholeNumberField(label, maximum=ENTRY[name].maximum, default=None)
        setattr(TeamLines, name, field)

    class RoundLines(Form):
        teams = FieldList(FormField(TeamLines), min_entries=team_count, max_entries=team_count)

    class PaperForm(FlaskForm):
        rounds = FieldList(FormField(RoundLines), min_entries=round_count, max_entries=round_count)
        # the game ends after these rounds (the table stopped), where its rules do not end it
        ended = BooleanField(_("The game ended with the last round typed"), default=True)
        revision = RevisionField()  # the game as the page was opened
        shown = RevisionField()  # how many round columns the page shows
        checked = HiddenField()  # what the check step signed (views.paper: digest)
        photo = RevisionField()  # the photo the page was filled in from (views.photos), if one

    return PaperForm


def typed(team):
    """Whether anything was typed in a team's boxes of a round."""
    return any(f.raw_data and f.raw_data[0].strip() for f in team)


def round_entries(form, lines):
    """Each team's ``TeamRound`` for one round's subform (a blank box is 0; a yes-or-no
    box is yes for any number but 0); the sheet's own (round score, total) per team, each
    None where not typed."""
    entries, sheet = [], []
    for entry in lines.teams:
        team = entry.form
        if form.scores_only:
            entries.append(TeamRound(paper_score=team[SCORE].data or 0))
            sheet.append((None, None))
            continue
        books = {kind: team[f"book_{kind}"].data or 0 for kind in form.rules.books}
        values = {}
        for f in ENTRY_FIELDS:
            box = team._fields.get(f.name)
            value = (box.data or 0) if box is not None else 0
            values[f.name] = bool(value) if f.kind == "flag" else value
        entries.append(TeamRound(books=books, **values))
        sheet.append((team[SHEET_SCORE].data, team[SHEET_TOTAL].data))
    return entries, sheet


def box_for(form, number, problem):
    """The box a ``scoring.Problem`` of round ``number`` is about (None: the round as a whole)."""
    if problem.team is None or problem.field is None:
        return None
    team = form.rounds[number - form.first].form.teams[problem.team].form
    name = SCORE if problem.field == "paper_score" else problem.field.replace("books.", "book_")
    return team._fields.get(name)
