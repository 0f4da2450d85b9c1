"""What was read from a sheet, checked by the game's own rules (issue 55).

Over 400 lines: the checks, the one-box repair and the chain's two-box repair are one
search over the same round's readings, each trying what the engine says of a change.

Each round's boxes become the engine's ``TeamRound``s, as the typing page makes them (a
blank box is 0, a tick is yes). The engine's checks mark a value the rules forbid; the
engine's round score and running total (``scoring.standings``) are compared with the
ones the family wrote. Where a team's column disagrees, or holds a forbidden value, one
box changed by one digit is looked for that explains it: its digits' likely alternatives
(the model's second choices), any digit of an unsure box, any digit of any other box
but a sum read with confidence (a family's slip in a total stays shown; a round score
whose total is the engine's is misread, not slipped, and so is a total the next round
carries on as the engine's: its total less its round score), a tick box
ticked or not, an unsure minus taken away. Where one of these changes makes the column
agree, is at least ``LEAST_LIKELIHOOD`` and ``DOMINANCE`` times as likely as any other
that does (the model's chance of the new digit over the one read), that box is repaired
and marked "repaired". Where no one box explains it, the family's own chain may: a
running total is the one before it plus the round score, and the next round's total less
its round score is the total the family carried on. Two boxes of the column (an entry and
the round score, the round score and the total, an entry and the total) changed by the
model's likely alternatives make it agree, the total carried on as the engine's (or its
digits read unsure), the likeliest way ``DOMINANCE`` times as likely as the next: both
are repaired (``_chain``). Any change that leaves a total the next round does not carry
on is ``UNLIKELY`` times less likely. Otherwise the column's sums are marked "disagrees"
(in Hand and Foot a clean book is worth 500 points: a 5 in the hundreds of the points
melded explains the same as one book more). Nothing is added up here: every score and
total is the engine's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import scoring
from ..printing import layout
from . import boxes as boxes_read

FORBIDDEN, DISAGREES, REPAIRED = "forbidden", "disagrees", "repaired"
LIKELY = 0.01  # a digit's alternative this likely is tried first
UNLIKELY = 1e-4  # the least chance a change is given (the model's chances go lower)
#: the likeliest change that explains a column is taken when it is this many times as
#: likely as the next
DOMINANCE = 10.0
#: ... and at least this likely (bench/reader.py, 30 pages: 66 repairs right and 1 wrong
#: with no floor, 66 and none with this one)
LEAST_LIKELIHOOD = 1e-3
#: a count the round scores at nothing either way (the red 3s of a team when no other team
#: went out), which no sum can vouch for, is "unsure" when read with less confidence than
#: this (bench/reader.py on the printed sheet: a 2 read as a 1 at 0.92, then, at 0.99, a 1
#: read as a 7 at 0.996, each in a column whose sums agreed, the one wrong box left
#: unflagged; of the 8,327 digits cut from seed 55's photos, the shipped networks read 497
#: at 0.99-0.999, 11 of them wrong, and 7,342 at 0.999 or more, 9 of them wrong)
UNVOUCHED = 0.999


@dataclass(frozen=True)
class Column:
    """One team's round: the engine's score and total beside the sheet's (None: not written
    or not known); ``agrees`` None where there was nothing to compare."""

    round: int
    team: int
    score: int | None
    total: int | None
    sheet_score: int | None
    sheet_total: int | None
    agrees: bool | None
    repaired: tuple | None = None  # the key of the box repaired


@dataclass(frozen=True)
class Checked:
    """``readings`` with the checks' marks (and repairs), each team's ``Column`` by
    (round, team), and the rounds read as the engine's entries (after the repairs)."""

    readings: dict
    columns: dict
    rounds: dict  # round number -> [TeamRound per team]


def entries(rules, geom, readings, number):
    """The round's ``TeamRound`` per team from what was read (blank and unread: 0)."""
    result = []
    for team in range(geom.teams):
        books, values = {}, {}
        for kind in rules.books:
            reading = readings.get((number, team, f"book_{kind}"))
            books[kind] = max(0, (reading.value if reading else None) or 0)
        for field in scoring.entry_fields(rules):
            reading = readings.get((number, team, field.name))
            if reading is None:
                continue
            value = reading.value or 0
            values[field.name] = bool(value) if field.kind == "flag" else max(0, value)
        result.append(scoring.TeamRound(books=books, **values))
    return result


def _zeroed(entry, names):
    """The fields named (``books.clean`` for a kind of book) as 0 or no."""
    changed, books = {}, dict(entry.books)
    for name in names:
        if name is None:
            continue
        if name.startswith("books."):
            books[name.removeprefix("books.")] = 0
        elif isinstance(getattr(entry, name, None), bool):
            changed[name] = False
        elif hasattr(entry, name):
            changed[name] = 0
    return {"books": books, **changed}


def _field_key(problem, number):
    if problem.team is None or problem.field is None:
        return None
    return (number, problem.team, problem.field.replace("books.", "book_"))


def _alternatives(reading, tier, vouched=False):
    """(new value, cells, negative, likelihood) of the comb changed in one box, for ``tier``
    0 (likely alternatives of its digits), 1 (any digit of an unsure box, an unsure minus),
    2 (any digit of another box, a tick); the likelihood is the model's chance of the new
    digit over its chance of the one read. ``vouched``: a round score whose total the
    engine makes as written (the entries right, the family's path the engine's), or a
    total the next round carries on as the engine's: any digit of it, as likely as the
    digit read."""
    box = reading.box
    if reading.mark == boxes_read.UNREAD:
        return
    if box.line.kind == "flag":
        if tier == 2:
            yield (None if reading.value else 1), reading.cells, False, UNLIKELY
        return
    for index, cell in enumerate(reading.cells):
        if cell.blank:
            continue
        if tier == 0:
            others = sorted(
                (d for d in range(10) if d != cell.digit and cell.chances[d] >= LIKELY),
                key=lambda d: -cell.chances[d],
            )
        elif tier == 1:
            if cell.confidence >= boxes_read.UNSURE and reading.mark != boxes_read.UNSURE_MARK:
                continue
            others = [d for d in range(10) if d != cell.digit and cell.chances[d] < LIKELY]
        else:
            if (box.line.kind == "sum" and not vouched) or cell.confidence < boxes_read.UNSURE:
                continue  # a sum read with confidence that disagrees may be the family's slip
            if reading.mark == boxes_read.UNSURE_MARK:
                continue
            others = [d for d in range(10) if d != cell.digit and cell.chances[d] < LIKELY]
        for digit in others:
            cells = list(reading.cells)
            cells[index] = replace(cell, digit=digit)
            likelihood = max(cell.chances[digit], UNLIKELY) / max(cell.chances[cell.digit], UNLIKELY)
            if vouched and tier == 2:
                likelihood = 1.0
            yield (
                boxes_read.value_of(box, cells, reading.negative),
                tuple(cells),
                reading.negative,
                likelihood,
            )
    if tier == 1 and box.sign and reading.value and reading.mark == boxes_read.UNSURE_MARK:
        yield -reading.value, reading.cells, not reading.negative, LIKELY


class _Round:
    """One round's entries scored by the engine after the rounds before it: ``scores`` and
    ``totals`` per team, None for a team whose entries the rules refuse (the others are
    scored with that team's refused values as 0) or for all when the round cannot be."""

    def __init__(self, rules, geom, readings, number, earlier, known):
        self.rules, self.geom, self.number = rules, geom, number
        self.entries = entries(rules, geom, readings, number)
        self.problems = scoring.check_round(rules, self.entries, number)
        self.errors = [p for p in self.problems if p.level == "error"]
        self.scores = self.totals = self.standings = None
        self.scored = self.entries
        refused = {p.team for p in self.errors}
        if None in refused:
            return
        if refused:
            self.scored = [
                replace(entry, **_zeroed(entry, [p.field for p in self.errors if p.team == t]))
                if t in refused
                else entry
                for t, entry in enumerate(self.entries)
            ]
            if any(p.level == "error" for p in scoring.check_round(rules, self.scored, number)):
                return
        try:
            s = scoring.standings(rules, [*earlier, self.scored], teams=geom.teams, known=known)
        except ValueError:
            return
        self.standings = s
        self.scores = [None if t in refused else score.total for t, score in enumerate(s.round_scores[-1])]
        self.totals = [None if t in refused else total for t, total in enumerate(s.running_totals[-1])]

    def agrees(self, readings, team, totals_known):
        """None (nothing written to compare), True or False for a team's column."""
        if self.scores is None or self.scores[team] is None:
            return None
        written = self._written(readings, team)
        compared = [(written[0], self.scores[team])]
        if team in totals_known:
            compared.append((written[1], self.totals[team]))
        compared = [(a, b) for a, b in compared if a is not None]
        if not compared:
            return None
        return all(a == b for a, b in compared)

    def _written(self, readings, team):
        found = [readings.get((self.number, team, name)) for name in (layout.ROUND_SCORE, layout.TOTAL)]
        return [r.value if r is not None and r.mark != boxes_read.UNREAD else None for r in found]

    def team_ok(self, readings, team, totals_known):
        errors = any(p.team == team for p in self.errors) or any(p.team is None for p in self.errors)
        return not errors and self.agrees(readings, team, totals_known) is not False


def check(rules, geom, readings, before=None):
    """The readings of a page checked by the rules: a ``Checked``.

    :param before: the game's rounds before the page's first (a list of ``TeamRound``
        lists), whose totals the page's running totals carry on; None: not known (for a
        page after the first, the totals are then not compared)."""
    readings = dict(readings)
    numbers = sorted({key[0] for key in readings})
    first = numbers[0] if numbers else 1
    earlier = list(before or [])
    # the teams whose running totals are compared (not after a round they disagree on)
    totals_known = set(range(geom.teams)) if before is not None or first == 1 else set()
    if before is None and first > 1:
        earlier = []
    columns, rounds = {}, {}
    known = scoring.standings(rules, earlier, teams=geom.teams) if earlier else None
    for number in numbers:
        in_round = [r for key, r in readings.items() if key[0] == number]
        if all(r.value is None and r.mark is None for r in in_round):
            break  # a round not written: the rounds after it are not either
        current = _Round(rules, geom, readings, number, earlier, known)
        for team in range(geom.teams):
            if current.team_ok(readings, team, totals_known):
                continue
            repaired = _repair(rules, geom, readings, number, team, earlier, known, totals_known, current)
            if repaired is None:
                repaired = _chain(rules, geom, readings, number, team, earlier, known, totals_known, current)
            else:
                repaired = [repaired]
            for key, reading in repaired or ():
                readings[key] = reading
            if repaired:
                current = _Round(rules, geom, readings, number, earlier, known)
        for problem in current.errors:
            key = _field_key(problem, number)
            if key in readings:
                readings[key] = replace(readings[key], mark=FORBIDDEN, note=problem.message)
        for team in range(geom.teams):
            agrees = current.agrees(readings, team, totals_known)
            written = current._written(readings, team)
            repaired_key = next(
                (k for k, r in readings.items() if k[:2] == (number, team) and r.mark == REPAIRED), None
            )
            columns[(number, team)] = Column(
                number,
                team,
                None if current.scores is None else current.scores[team],
                None if current.totals is None or team not in totals_known else current.totals[team],
                written[0],
                written[1],
                agrees,
                repaired_key,
            )
            if agrees is False:
                for name, engine in (
                    (layout.ROUND_SCORE, current.scores[team]),
                    (layout.TOTAL, current.totals[team] if team in totals_known else None),
                ):
                    reading = readings.get((number, team, name))
                    if (
                        reading is not None
                        and reading.value not in (None, engine)
                        and engine is not None
                        and reading.mark != boxes_read.UNREAD
                    ):
                        readings[(number, team, name)] = replace(reading, mark=DISAGREES)
                if written[0] is None:
                    totals_known.discard(team)  # the totals after it carry what is not known
        for team in range(geom.teams):
            if columns[(number, team)].agrees:
                for key in _unvouched(rules, geom, readings, number, team, earlier, known, current):
                    readings[key] = replace(readings[key], mark=boxes_read.UNSURE_MARK)
        rounds[number] = current.entries
        if current.scores is None:
            totals_known = set()  # the rounds after one the engine cannot score
            continue
        # a team's round whose written score and total both disagree (an entry misread, or
        # the family's slip carried into the total) counts at the sheet's score for the
        # totals after it, as the family's do
        # (the others then count at the scores the round as read gave them: a team's round
        # kept as its score alone goes out of no round, and another team's red 3s would
        # count as though no one went out)
        at_sheet = {
            t
            for t in range(geom.teams)
            if columns[(number, t)].sheet_score not in (None, columns[(number, t)].score)
            and columns[(number, t)].sheet_total != current.totals[t]
        }
        anchored = current.scored
        if at_sheet:
            anchored = [
                scoring.TeamRound(
                    paper_score=columns[(number, t)].sheet_score
                    if t in at_sheet
                    else current.standings.round_scores[-1][t].total
                )
                for t in range(geom.teams)
            ]
        # a team the engine could not score and the sheet gives no score for: not known
        totals_known -= {t for t, score in enumerate(current.scores) if score is None and t not in at_sheet}
        if at_sheet:
            known = scoring.standings(rules, [*earlier, anchored], teams=geom.teams, known=known)
        else:
            known = current.standings
        earlier = [*earlier, anchored]
    # a total that agrees with the engine but not with the one the next round carries on
    # (a misread that happens to undo the family's slip) is not vouched for: "unsure"; nor
    # is one that vouched for a repair with no next round to carry it on, read with less
    # confidence than ``UNVOUCHED``
    for (number, team), column in columns.items():
        key = (number, team, layout.TOTAL)
        if not column.agrees or column.total is None or readings[key].mark is not None:
            continue
        carried = _carried(readings, number, team)
        if carried not in (None, column.sheet_total) or (
            carried is None and column.repaired is not None and readings[key].confidence < UNVOUCHED
        ):
            readings[key] = replace(readings[key], mark=boxes_read.UNSURE_MARK)
    return Checked(readings, columns, rounds)


def _unvouched(rules, geom, readings, number, team, earlier, known, current):
    """The keys of a team's counts read with less confidence than ``UNVOUCHED`` whose value
    the engine's score of the round does not depend on (one more leaves it as it is)."""
    for key, reading in readings.items():
        if key[:2] != (number, team) or reading.box.line.kind != "count" or reading.mark is not None:
            continue
        if reading.value is None or reading.confidence >= UNVOUCHED:
            continue
        trial = {**readings, key: replace(reading, value=reading.value + 1)}
        changed = _Round(rules, geom, trial, number, earlier, known)
        if changed.scores is not None and changed.scores[team] == current.scores[team]:
            yield key


def _carried(readings, number, team, sure=False):
    """The total the family carried on from a team's round: the next round's written total
    less its written round score (None where either is not read; ``sure``: or is marked,
    a digit read unsure)."""
    after = [readings.get((number + 1, team, n)) for n in (layout.ROUND_SCORE, layout.TOTAL)]
    if not all(r is not None and r.value is not None and r.mark != boxes_read.UNREAD for r in after):
        return None
    if sure and any(r.mark is not None for r in after):
        return None
    return after[1].value - after[0].value


def _repair(rules, geom, readings, number, team, earlier, known, totals_known, current):
    """(key, repaired ``BoxReading``) of the one box of a team's round whose one digit
    changed makes the round pass the checks and its column agree, or None."""
    forbidden = {_field_key(p, number) for p in current.errors if p.team == team}
    if any(p.team is None for p in current.errors):
        return None
    team_keys = [k for k in readings if k[:2] == (number, team)]
    if any(readings[k].mark == boxes_read.UNREAD for k in team_keys):
        return None
    others = {t: current.agrees(readings, t, totals_known) for t in range(geom.teams) if t != team}
    candidates = [k for k in team_keys if k in forbidden] if forbidden - {None} else team_keys
    written_sums = [readings.get((number, team, n)) for n in (layout.ROUND_SCORE, layout.TOTAL)]
    if not any(r is not None and r.value is not None for r in written_sums) and not forbidden:
        return None
    # the round score misread where the written total is the engine's: the total vouches
    written_total = readings.get((number, team, layout.TOTAL))
    vouched = None
    if (
        team in totals_known
        and current.totals is not None
        and written_total is not None
        and written_total.mark != boxes_read.UNREAD
        and written_total.value == current.totals[team]
    ):
        vouched = (number, team, layout.ROUND_SCORE)
    # the total misread where the next round's total, less its round score, is the
    # engine's: the family carried the right total on (a slip would be carried on instead)
    carried = _carried(readings, number, team)
    if team in totals_known and current.totals is not None and carried == current.totals[team]:
        vouched = vouched or (number, team, layout.TOTAL)
    explaining = []
    for tier in (0, 1, 2):
        for key in candidates:
            reading = readings[key]
            for value, cells, negative, likelihood in _alternatives(reading, tier, key == vouched):
                trial = dict(readings)
                trial[key] = replace(reading, value=value, cells=cells, negative=negative)
                changed = _Round(rules, geom, trial, number, earlier, known)
                if changed.scores is None or not changed.team_ok(trial, team, totals_known):
                    continue
                if forbidden - {None} and changed.agrees(trial, team, totals_known) is None:
                    continue  # nothing written to say which value is right
                if any(
                    was is not False and changed.agrees(trial, t, totals_known) is False
                    for t, was in others.items()
                ):
                    continue
                explaining.append((likelihood, key, trial[key]))
    explaining.sort(key=lambda found: -found[0])
    if not explaining or explaining[0][0] < LEAST_LIKELIHOOD:
        return None
    if len(explaining) > 1 and explaining[0][0] < DOMINANCE * explaining[1][0]:
        return None  # none, or more than one change explains it: the family says which
    _likelihood, key, reading = explaining[0]
    return key, replace(reading, mark=REPAIRED, was=readings[key].value)


def _as_read(reading, value):
    """(cells, likelihood, the confidences of the digits changed) of a comb read as
    ``value`` with the digits it shows, each changed digit the model's chance of the new
    one over the one read; None where its digits cannot say it (another number of digits,
    another sign, a gap)."""
    if value is None or reading.value is None or reading.mark == boxes_read.UNREAD:
        return None
    if (value < 0) != reading.negative:
        return None
    shown = [i for i, cell in enumerate(reading.cells) if not cell.blank]
    text = str(abs(value))
    if len(text) != len(shown) or shown[-1] - shown[0] + 1 != len(shown):
        return None
    cells, likelihood, changed = list(reading.cells), 1.0, []
    for index, character in zip(shown, text):
        cell, digit = reading.cells[index], int(character)
        if digit != cell.digit:
            likelihood *= max(cell.chances[digit], UNLIKELY) / max(cell.chances[cell.digit], UNLIKELY)
            changed.append(cell.confidence)
            cells[index] = replace(cell, digit=digit)
    return tuple(cells), likelihood, changed


def _chain(rules, geom, readings, number, team, earlier, known, totals_known, current):
    """[(key, repaired ``BoxReading``)] of the boxes of a team's round, two at most, that
    together make it agree where no one box does: an entry and the round score misread, or
    the round score and the running total. Each way of reading the column is an entry
    changed by one digit (or none), its round score and total then the engine's, and the
    written round score and total read as those (``_as_read``); its likelihood is the
    product of the model's chances of the digits changed over those read. The running
    total is the chain that says which: a total is changed only where the next round's
    total less its round score is the new total (the family carried it on), or where the
    digits changed were read unsure. A sum the chain vouches for counts as likely as the
    digits read, as in ``_repair``: the round score where the total read is the engine's
    (and the next round, read, carries no other total on), the total where the next round
    carries it on. The likeliest way is taken when
    ``DOMINANCE`` times as likely as the next and at least ``LEAST_LIKELIHOOD``; else None."""
    if any(p.team is None for p in current.errors) or team not in totals_known:
        return None
    team_keys = [k for k in readings if k[:2] == (number, team)]
    if any(readings[k].mark == boxes_read.UNREAD for k in team_keys):
        return None
    score_key, total_key = (number, team, layout.ROUND_SCORE), (number, team, layout.TOTAL)
    score, total = readings.get(score_key), readings.get(total_key)
    if score is None or total is None or score.value is None or total.value is None:
        return None
    forbidden = {_field_key(p, number) for p in current.errors if p.team == team} - {None}
    others = {t: current.agrees(readings, t, totals_known) for t in range(geom.teams) if t != team}
    carried, contradicted = _carried(readings, number, team), _carried(readings, number, team, sure=True)
    changes = [(None, None, 1.0)]  # (key, changed reading, likelihood) of an entry
    for key in team_keys:
        if key in (score_key, total_key) or (forbidden and key not in forbidden):
            continue
        for tier in (0, 1):
            for value, cells, negative, likelihood in _alternatives(readings[key], tier):
                changes.append(
                    (key, replace(readings[key], value=value, cells=cells, negative=negative), likelihood)
                )
    if forbidden:
        changes = changes[1:]  # a value the rules forbid is among those changed
    ways = []
    for key, changed, likelihood in changes:
        trial = dict(readings)
        if key is not None:
            trial[key] = changed
        scored = _Round(rules, geom, trial, number, earlier, known) if key is not None else current
        if scored.scores is None or scored.scores[team] is None:
            continue
        if any(
            was is not False and scored.agrees(trial, t, totals_known) is False for t, was in others.items()
        ):
            continue
        as_score = _as_read(score, scored.scores[team])
        as_total = _as_read(total, scored.totals[team])
        if as_score is None or as_total is None:
            continue
        if as_total[2] and scored.totals[team] != carried and min(as_total[2]) >= boxes_read.UNSURE:
            continue  # a total read with confidence may be the family's slip
        repairs = [(k, r) for k, r in ((key, changed),) if k is not None]
        for sum_key, (cells, _l, digits_changed), value in (
            (score_key, as_score, scored.scores[team]),
            (total_key, as_total, scored.totals[team]),
        ):
            if digits_changed:
                repairs.append((sum_key, replace(readings[sum_key], value=value, cells=cells)))
        if not repairs or len(repairs) > 2:
            continue
        # a sum the chain vouches for counts as likely as read: the round score where the
        # total is the engine's as read (and the next round, read, carries no other total
        # on), the total where the next round carries it on
        if as_total[2] or carried not in (None, scored.totals[team]):
            likelihood *= as_score[1]
        if scored.totals[team] != carried:
            likelihood *= as_total[1]
        if contradicted not in (None, scored.totals[team]):
            likelihood *= UNLIKELY  # the next round, read surely, carries another total on
        ways.append((likelihood, repairs))
    ways.sort(key=lambda way: -way[0])
    if not ways or ways[0][0] < LEAST_LIKELIHOOD:
        return None
    if len(ways) > 1 and ways[0][0] < DOMINANCE * ways[1][0]:
        return None
    return [(key, replace(r, mark=REPAIRED, was=readings[key].value)) for key, r in ways[0][1]]
