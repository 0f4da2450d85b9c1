"""A game's change log in each reader's language.

A line is kept twice: as English text (``revisions.summary``: what the exports and an old
copy of the app read) and as what it says (``revisions.said``: its message, marked for
translation, and its values), worded again in the language of whoever reads it. A round's
edit is worded from the entries kept before and after it (``describe_changes``), so its
"clean books 3 → 4" reads in the reader's words too. Lines kept before issue 47 have no
``said`` and read as written.
"""

from __future__ import annotations

import json

from ..scoring import TeamRound, entry_fields
from ..scoring.language import _, english
from ..scoring.presets import title


def said(message: str, **values) -> dict:
    """A change-log line to word when shown: its ``message`` (marked with ``N_``), and
    its values (plain data: numbers, a rule set's name as kept)."""
    return {"message": message, "values": values}


def word(game, action, line, before=None, after=None):
    """The line ``said`` in the reader's language (``game``: its rules and teams, for a
    round's edit, worded from the entries ``before`` and ``after`` it, as logged)."""
    values = dict(line["values"])
    if "rules" in values:
        values["rules"] = title(values["rules"])
    if action == "edited" and game is not None and before is not None and after is not None:
        was = [TeamRound.from_dict(entry) for entry in before]
        now = [TeamRound.from_dict(entry) for entry in after]
        values["changes"] = "; ".join(describe_changes(game, was, now))
    return _(line["message"], **values)


def in_english(game, action, line, before=None, after=None):
    """The line as the log keeps it in writing (English)."""
    with english():
        return word(game, action, line, before, after)


def shown(game, change):
    """A ``game_model.Change`` in the reader's language: worded again from what it said,
    else as it was written."""
    if not change.said:
        return change.summary
    before = json.loads(change.before) if change.before else None
    after = json.loads(change.after) if change.after else None
    return word(game, change.action, json.loads(change.said), before, after)


def describe_changes(game, before, after):
    """What an edit changed, per team, for the change log."""
    changes = []
    for team, old, new in zip(game.teams, before, after):
        if old.paper_score != new.paper_score:  # a round kept as its scores alone
            changes.append(
                _(
                    "%(team)s: score %(was)s → %(now)s",
                    team=team.name,
                    was=old.paper_score,
                    now=new.paper_score,
                )
            )
            continue
        parts = [
            _(
                "%(what)s %(was)s → %(now)s",
                what=game.rules.book_label(kind).lower(),
                was=old.books.get(kind, 0),
                now=new.books.get(kind, 0),
            )
            for kind in game.rules.books
            if old.books.get(kind, 0) != new.books.get(kind, 0)
        ]
        for entry in entry_fields(game.rules):
            was, now_ = getattr(old, entry.name), getattr(new, entry.name)
            if was == now_:
                continue
            if entry.kind == "flag":
                parts.append(entry.log if now_ else _("no longer %(what)s", what=entry.log))
            else:
                parts.append(_("%(what)s %(was)s → %(now)s", what=entry.log, was=was, now=now_))
        if parts:
            changes.append(_("%(team)s: %(changes)s", team=team.name, changes=", ".join(parts)))
    return changes
