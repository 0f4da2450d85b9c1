"""The round form: one fieldset per team, built from the engine's ``ENTRY_FIELDS``."""

from flask_wtf import FlaskForm
from wtforms import BooleanField, FieldList, Form, FormField, HiddenField, RadioField, SelectChoice
from wtforms.validators import InputRequired

from .. import scoring
from ..recent import PerObject
from ..scoring import ENTRY_FIELDS, MAX_BOOKS, MAX_PAPER_SCORE, TeamRound
from ..scoring.language import _, language, ngettext
from ..typed import whole_number
from .fields import RevisionField, SignedNumberField, WholeNumberField

NOBODY = "nobody"
CONCEALED = "c"  # "2c": the third team went out concealed
FIRST_MELD = "first_meld_books"
PACKET = "packet_not_taken"
#: the book counts offered as one tap each; a larger count is typed
CHIPS = range(10)


class BookCountField(WholeNumberField):
    """A count of books: one tap on a chip (0–9), or typed (any count).

    The chips are radio buttons and the box beside them a text input, all
    under the field's one name. A phone sends the chip it has and what is in
    the box: the box wins when it holds anything (its value comes last), so
    without JavaScript a number typed over a chosen chip is the one taken.
    """

    def process_formdata(self, valuelist):
        typed = [v for v in valuelist if v.strip()]
        super().process_formdata(typed[-1:] or valuelist[-1:])

    def chip(self):
        """The chip to show chosen (none sent is 0), or None when the count is in the box or wrong."""
        count = 0 if self.data is None else self.data
        return count if count in CHIPS and not self.errors else None

    def typed(self):
        """What the box shows: a count past the chips, or what was typed and refused."""
        if self.chip() is not None:
            return ""
        if self.raw_data:
            return next((v for v in reversed(self.raw_data) if v.strip()), "")
        return "" if self.data is None else str(self.data)


def round_form(game, formdata=None, entries=None, number=None, saved=None, csrf=True):
    """The round form for this game's rules: only the fields its rules ask for.

    :param entries: a saved round's ``TeamRound``s, to fix it.
    :param number: the round's number (what its first meld must hold); the next round when None.
    :param saved: the round being fixed, as saved: an entry it holds is asked
        even where the rules price it at nothing (a round imported, or entered
        before the form stopped asking), so that fixing it never drops a value.
    :param csrf: False for a form read from a GET (it writes nothing); the
        app's CSRF protection checks every POST before the view runs.
    """
    rules = game.rules
    number = number or game.standings.next_round
    held = frozenset(f.name for f in ENTRY_FIELDS for e in saved or () if getattr(e, f.name))
    if game.scores_only:  # an old sheet's round: a score per team, nothing else
        teams = len(game.teams)
        RoundForm, tiers, first_meld = (
            _SCORES.get(rules, lambda: _scores_form_class(teams), teams, language()),
            (),
            None,
        )
    else:
        RoundForm, tiers, first_meld = _form_class(
            rules,
            game.player_count,
            number,
            held,
            tuple(team.name for team in game.teams),
            tuple(len(team.players) for team in game.teams),
        )
    data = None
    if entries is not None and game.scores_only:
        data = {"teams": [{SCORE: e.paper_score} for e in entries]}
    elif entries is not None:
        data = {
            "teams": [_entry_data(rules, e) for e in entries],
            "went_out": next(
                (
                    f"{i}{CONCEALED if e.went_out_concealed else ''}"
                    for i, e in enumerate(entries)
                    if e.went_out
                ),
                NOBODY,
            ),
        }
    form = RoundForm(formdata=formdata, data=data, meta={"csrf": csrf})
    form.rules = rules
    form.scores_only = game.scores_only
    form.tiers = tiers
    form.number = number
    form.first_meld = first_meld
    return form


# Round form classes, built once for each shape of form (issue 24: building the
# class was a tenth of a save), per rule set object and what else shapes it (the
# language its labels are said in too).
_CLASSES = PerObject(64)
_SCORES = PerObject(16)
#: the one field of a round kept as its scores alone (an old paper sheet's)
SCORE = "paper_score"


def _scores_form_class(team_count):
    """The round form of a game kept as its scores alone: each team's round score."""

    class ScoreFields(Form):
        paper_score = SignedNumberField(
            _("Round score"), minimum=-MAX_PAPER_SCORE, maximum=MAX_PAPER_SCORE, validators=[InputRequired()]
        )

    class ScoresForm(FlaskForm):
        teams = FieldList(FormField(ScoreFields), min_entries=team_count, max_entries=team_count)
        went_out = RadioField(
            _("Who went out"), default=NOBODY, choices=[SelectChoice(NOBODY, _("Nobody went out"))]
        )
        checked = HiddenField()
        revision = RevisionField()
        round_id = RevisionField()

    return ScoresForm


def _form_class(rules, players, number, held, team_names, team_sizes):
    """(the round form class, the rules' value tiers, the books the round's first meld must hold)."""
    first_meld = scoring.first_meld_books(rules, number)
    shape = (players, tuple(sorted(first_meld.items())) if first_meld else None, held, team_names, team_sizes)
    return _CLASSES.get(
        rules,
        lambda: _build_form_class(rules, players, first_meld, held, team_names, team_sizes),
        *shape,
        language(),  # its labels say the rules' words, which are the reader's language's
    )


def _build_form_class(rules, players, first_meld, held, team_names, team_sizes):
    tiers = scoring.value_tiers(rules)
    # the helper's counters stop at what the deck holds for this table
    limits = scoring.tier_limits(rules, players)

    class EntryFields(Form):
        pass

    for kind in rules.books:
        setattr(
            EntryFields,
            f"book_{kind}",
            BookCountField(rules.book_label(kind), default=0, maximum=MAX_BOOKS),
        )
    for entry in scoring.entry_fields(rules):
        if entry.kind == "flag" or not (scoring.asked(rules, entry) or entry.name in held):
            continue  # the one flag, going out, is the round's "who went out" choice
        # empty, not "0": a digit typed replaces nothing (an empty field counts as 0)
        setattr(
            EntryFields,
            entry.name,
            WholeNumberField(entry.label, default=None, maximum=entry.maximum, description=entry.help),
        )
        if entry.counted:  # the card-count helper: how many cards of each value
            for i, (tier, limit) in enumerate(zip(tiers, limits)):
                setattr(
                    EntryFields,
                    f"{entry.counted}_count_{i}",
                    WholeNumberField(f"{tier.label} ×{tier.value}", default=None, maximum=limit or 999),
                )
    if first_meld:  # one tick per team: its first meld held the books the round asks for
        setattr(EntryFields, FIRST_MELD, BooleanField(scoring.first_meld_label(rules, first_meld)))
    # a tick per team where the rules count a second packet never taken (Buraco's morto)
    packet = next(e for e in scoring.entry_fields(rules) if e.name == PACKET)
    if scoring.asked(rules, packet) or PACKET in held:
        setattr(EntryFields, PACKET, BooleanField(packet.label, description=packet.help))

    choices = []
    for i, (name, size) in enumerate(zip(team_names, team_sizes, strict=True)):
        # the verb agrees with the team (issue 56: "Ann & Bo bateu")
        # Translators: a team went out (the round's winning move); the count is how many players it has
        went = ngettext("%(team)s went out", "%(team)s went out", size, team=name)
        choices.append(SelectChoice(str(i), went))
        if scoring.in_use(rules.going_out_concealed):
            # Translators: a team went out concealed; the count is how many players it has
            concealed = ngettext(
                "%(team)s went out concealed", "%(team)s went out concealed", size, team=name
            )
            choices.append(SelectChoice(f"{i}{CONCEALED}", concealed))

    class RoundForm(FlaskForm):
        teams = FieldList(FormField(EntryFields), min_entries=len(team_names), max_entries=len(team_names))
        went_out = RadioField(
            _("Who went out"), default=NOBODY, choices=[*choices, SelectChoice(NOBODY, _("Nobody went out"))]
        )
        # a digest of the entries the scorekeeper last saw checked, so that
        # "save" saves exactly what was reviewed
        checked = HiddenField()
        # the game's revision when the form was opened: a change meanwhile is refused
        revision = RevisionField()
        round_id = RevisionField()  # the round being fixed (ids are never reused)

    return RoundForm, tiers, first_meld


def _entry_data(rules, entry):
    data = {f"book_{kind}": entry.books.get(kind, 0) for kind in rules.books}
    # a number left at 0 shows as an empty field, as on a new round
    return data | {f.name: getattr(entry, f.name) or None for f in ENTRY_FIELDS if not f.out_choice}


def team_fields(form):
    """(team index, its subform) pairs."""
    return [(i, entry.form) for i, entry in enumerate(form.teams)]


def _number(fields, name):
    """A number field's value; a blank one, or one the form does not ask, is 0."""
    f = getattr(fields, name, None)
    return (f.data or 0) if f is not None else 0


def _flag(form, fields, entry, team):
    """A yes-or-no entry: from the who-went-out choice, or the team's own tick (no tick: no)."""
    choice = form.went_out.data
    if entry.name == "went_out":
        return choice in (str(team), f"{team}{CONCEALED}")
    if entry.name == "went_out_concealed":
        return choice == f"{team}{CONCEALED}"
    f = getattr(fields, entry.name, None)
    return bool(f.data) if f is not None else False


def entries_from(form):
    """The ``TeamRound``s the form holds (blank numbers, and entries not asked, count as 0)."""
    if form.scores_only:
        return [TeamRound(paper_score=fields.paper_score.data or 0) for _, fields in team_fields(form)]
    rules, entries = form.rules, []
    for i, fields in team_fields(form):
        values = {
            f.name: _flag(form, fields, f, i) if f.kind == "flag" else _number(fields, f.name)
            for f in ENTRY_FIELDS
        }
        entries.append(
            TeamRound(books={kind: _number(fields, f"book_{kind}") for kind in rules.books}, **values)
        )
    return entries


def posted_entries(rules, teams, values, scores_only=False):
    """The ``TeamRound``s a posted round form holds, read as ``entries_from`` reads the
    form but without building it; None when a value is not a number.

    Every name the form could hold is read (an entry the form does not ask, posted
    all the same, is read too): so these entries differ from the form's whenever
    the form would read anything else, and a save compares them with the digest
    of what the check step reviewed (``views.round_screen.proven``): only the
    very entries it reviewed get past it.
    """
    choice = values.get("went_out", NOBODY)
    entries = []
    try:
        if scores_only:
            scores = [values.get(f"teams-{i}-{SCORE}") for i in range(teams)]
            return [TeamRound(paper_score=(whole_number(s) if s is not None else None) or 0) for s in scores]
        for i in range(teams):
            prefix = f"teams-{i}-"
            books = {}
            for kind in rules.books:
                sent = values.getlist(f"{prefix}book_{kind}")
                typed = [v for v in sent if v.strip()]  # as BookCountField: the box wins
                chosen = (typed or sent)[-1:]
                books[kind] = (whole_number(chosen[0]) if chosen else None) or 0
            data = {}
            for f in ENTRY_FIELDS:
                if f.name == "went_out":
                    data[f.name] = choice in (str(i), f"{i}{CONCEALED}")
                elif f.name == "went_out_concealed":
                    data[f.name] = choice == f"{i}{CONCEALED}"
                elif f.kind == "flag":  # the one tick a team has (BooleanField)
                    data[f.name] = values.get(prefix + f.name, "") not in ("", "false")
                else:
                    sent = values.get(prefix + f.name)
                    data[f.name] = (whole_number(sent) if sent is not None else None) or 0
            entries.append(TeamRound(books=books, **data))
    except ValueError:
        return None
    return entries


def field_for(form, problem):
    """The form field a ``scoring.Problem`` is about, to show it there."""
    if problem.team is None or problem.field == "went_out":
        return form.went_out
    fields = form.teams[problem.team].form
    name = problem.field.replace("books.", "book_") if problem.field else ""
    return getattr(fields, name, form.went_out)


def leaf_fields(form):
    """Every number field by its HTML name, for the − / + and "add up" buttons."""
    return {f.name: f for _, fields in team_fields(form) for f in fields if isinstance(f, WholeNumberField)}


def all_fields(form):
    """Every field a person fills in, in page order (for the error summary)."""
    return [form.went_out, *(f for _, fields in team_fields(form) for f in fields)]


def summary_titles(form, team_names):
    """What the error summary calls each team's field: the team, then the field
    ("Ann & Bo · Points melded"), since every team has a field of that name."""
    return {f.id: f"{team_names[i]} · {f.label.text}" for i, fields in team_fields(form) for f in fields}


def entry_fields(form, fields):
    """The team subform's entry fields in the declaration's order: (EntryField, field)."""
    return [
        (entry, getattr(fields, entry.name))
        for entry in scoring.entry_fields(form.rules)
        if entry.kind != "flag" and hasattr(fields, entry.name)
    ]


def add_up(form, target, team):
    """The card-count helper's "Add up": the engine turns counts into points.

    :returns: False when ``target`` or ``team`` names nothing (a forged button).
    """
    teams = dict(team_fields(form))
    entry = next((f for f in ENTRY_FIELDS if f.counted == target), None)
    if entry is None or team not in teams or not hasattr(teams[team], entry.name):
        return False
    fields = teams[team]
    counts, ok = {}, True
    for i, tier in enumerate(form.tiers):
        f = getattr(fields, f"{target}_count_{i}")
        if not f.validate(form):
            ok = False
        counts[tier.ranks[0]] = f.data or 0
    if ok:
        points = scoring.card_points(form.rules, counts)
        field = getattr(fields, entry.name)
        field.data, field.raw_data = points, [str(points)]
    return True


def step(form, name, delta):
    """A − or + button: add or take one, never below zero. Nothing is saved.

    :returns: False when the button names no field (a forged button).
    """
    field = leaf_fields(form).get(name)
    if field is None or delta not in ("1", "-1"):
        return False
    value = min(max(0, (field.data or 0) + int(delta)), field.maximum)
    field.data, field.raw_data = value, [str(value)]
    return True
