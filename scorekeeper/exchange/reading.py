"""An export file read a part at a time (``Reader``), each part bounded before it is decoded.

The file's members are read one by one, and the items of its ``players``, ``house_rules``
and ``games`` lists one at a time: ``checking.check_file`` checks each as it comes and
keeps only what it checked, so a file is never whole in memory as Python objects (8 MB of
``[{},{},…]`` was 200 MB of them). No one value is decoded from more than its limit's
characters (``limits.MAX_GAME_TEXT`` for a game, ``MAX_VALUE_TEXT`` for anything else): the
decoder is given a window of the text, never the rest of the file. And a list holds no
more items than its limit. A file past a limit is refused there, with its line and the
limit, before the rest is read.

Reading a value at a time also keeps the interpreter's lock free between two: ``json.loads``
of years of games is one call that holds it throughout (half a second for 8,000 games), and
a phone's Save on another thread of the app waited that long (issue 42).
"""

import json
import re
from typing import Any, NamedTuple

from ..scoring.language import _
from .limits import MAX_GAME_TEXT, MAX_GAMES, MAX_HOUSE_RULES, MAX_MEMBERS, MAX_PLAYERS, MAX_VALUE_TEXT

_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")

#: the lists read an item at a time: (their most items, an item's most characters)
LISTS = {
    "players": (MAX_PLAYERS, MAX_VALUE_TEXT),
    "colours": (MAX_PLAYERS, MAX_VALUE_TEXT),
    "house_rules": (MAX_HOUSE_RULES, MAX_VALUE_TEXT),
    "games": (MAX_GAMES, MAX_GAME_TEXT),
}
#: a list's first part, and its last (whose value is how many items it had)
START, END = "[", "]"


class Part(NamedTuple):
    """A part of the file, in the order it is written.

    ``key`` is the member's name, or None for a file that is not an object (``value``
    then is the whole file). ``index`` is None for a member read whole, ``START`` and
    ``END`` around the items of a list read an item at a time, and each item's position.
    ``line`` is the line the part starts on; ``at``, the character.
    """

    key: str | None
    index: Any
    value: Any
    line: int
    at: int


class Reader:
    """An export file's text (bytes or a str), read a part at a time (``parts``)."""

    def __init__(self, content):
        try:
            if isinstance(content, (bytes, bytearray)):  # as json.loads reads bytes
                self.text = content.decode(json.detect_encoding(content), "surrogatepass")
            elif content.startswith("\ufeff"):
                raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", content, 0)
            else:
                self.text = content
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(_("not a JSON file (%(error)s)", error=error)) from None
        self.size = len(self.text)
        self._start, self._window = 0, ""  # the text the decoder is given: text[start:start + len]
        self._lines, self._counted = 1, 0  # the line that character ``counted`` is on

    def parts(self):
        """Each ``Part`` of the file, as it is read.

        :raises ValueError: the file is not JSON ("not a JSON file (…)"), is nested too
            deeply, or holds more than a limit allows (its place, line and the limit).
        """
        try:
            yield from self._parts()
        except json.JSONDecodeError as error:
            raise ValueError(_("not a JSON file (%(error)s)", error=error)) from None
        except RecursionError:
            raise ValueError(_("not a Scorekeeper export (nested too deeply)")) from None

    def line(self, at):
        """The line character ``at`` is on (counted on from the last one asked, which is earlier)."""
        if at < self._counted:
            self._lines, self._counted = 1, 0
        self._lines += self.text.count("\n", self._counted, at)
        self._counted = at
        return self._lines

    def refuse(self, where, at, why):
        """Refuse the file at ``where`` ("games[12]"), which starts at character ``at``."""
        raise refusal(where, why, self.line(at))

    def _parts(self):
        text = self.text
        at = _SPACE.match(text).end()
        if not text.startswith("{", at):  # not an export: read whole (and small), or refused
            value, end = self._value(at, MAX_VALUE_TEXT, "file")
            self._end(end)
            yield Part(None, None, value, 1, at)
            return
        at = _SPACE.match(text, at + 1).end()
        if text.startswith("}", at):
            self._end(at + 1)
            return
        while True:
            if not text.startswith('"', at):
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
            key, at = self._value(at, MAX_VALUE_TEXT, "file")
            at = _SPACE.match(text, at).end()
            if not text.startswith(":", at):
                raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
            at = _SPACE.match(text, at + 1).end()
            if key in LISTS and text.startswith("[", at):
                at = yield from self._items(key, at + 1)
            else:
                value, end = self._value(at, MAX_VALUE_TEXT, key)
                yield Part(key, None, value, self.line(at), at)
                at = end
            at = _SPACE.match(text, at).end()
            if text.startswith("}", at):
                self._end(at + 1)
                return
            if not text.startswith(",", at):
                raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
            at = _SPACE.match(text, at + 1).end()

    def _items(self, key, at):
        """The items of the list ``key`` that starts before ``at``, a part each; where it ends."""
        text, (most, longest) = self.text, LISTS[key]
        yield Part(key, START, None, self.line(at), at)
        at, count = _SPACE.match(text, at).end(), 0
        if not text.startswith("]", at):
            while True:
                where = f"{key}[{count}]"
                if count == most:
                    self.refuse(where, at, _limit(key, most))
                item, end = self._value(at, longest, where)
                yield Part(key, count, item, self.line(at), at)
                count += 1
                at = _SPACE.match(text, end).end()
                if text.startswith("]", at):
                    break
                if not text.startswith(",", at):
                    raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
                at = _SPACE.match(text, at + 1).end()
        yield Part(key, END, count, self.line(at), at)
        return at + 1

    def _value(self, at, most, where):
        """The JSON value at character ``at`` and where it ends; refused if it is longer
        than ``most`` characters. The decoder is given a window of the text that ends
        ``most`` characters or more after ``at``, and at most a quarter more (so that the
        next values find it there): never the whole rest of the file. A value too long
        is refused once the decoder reaches the window's end: what it made of the window
        until then is the most one value can take in memory."""
        text = self.text
        window_end = self._start + len(self._window)
        if at < self._start or (at + most > window_end and window_end < len(text)):
            self._start, self._window = at, text[at : at + most + most // 4]
            window_end = at + len(self._window)
        cut = window_end < len(text)  # the window ends before the text does
        try:
            value, end = _DECODER.raw_decode(self._window, at - self._start)
        except json.JSONDecodeError as error:
            # the value ran past the window's end: a string never closed, or the decoder
            # stopped at the very end of what it was given
            if cut and (error.pos >= len(self._window) - 16 or error.msg.startswith("Unterminated string")):
                self.refuse(where, at, _too_long(where, most))
            raise json.JSONDecodeError(error.msg, text, self._start + error.pos) from None
        end += self._start
        if end - at > most:
            self.refuse(where, at, _too_long(where, most))
        return value, end

    def _end(self, at):
        if _SPACE.match(self.text, at).end() != len(self.text):
            raise json.JSONDecodeError("Extra data", self.text, at)


def refusal(where, why, line=None):
    """A file refused: the place first ("games[3].rounds[2]: …", as every refusal of an
    export starts), then its line when it was read from a file."""
    if line is None:
        return ValueError(f"{where}: {why}")
    # Translators: "games[12] (line 14): a history holds at most 20,000 games"
    return ValueError(_("%(where)s (line %(line)s): %(why)s", where=where, line=format(line, ","), why=why))


def _limit(key, most):
    most = format(most, ",")
    if key == "games":
        return _("a history holds at most %(most)s games", most=most)
    if key == "players":
        return _("a history lists at most %(most)s players", most=most)
    return _("a history holds at most %(most)s sets of house rules", most=most)


def _too_long(where, most):
    if where.startswith("games["):
        # Translators: a game in a history export, far longer than any game the app keeps
        return _(
            "a game of more than %(most)s characters: the longest game the app keeps, 999 rounds of six "
            "teams, is shorter",
            most=format(most, ","),
        )
    return _(
        "more than %(most)s characters: nothing in a Scorekeeper export is so long", most=format(most, ",")
    )


def read_history(content):
    """Parse an export file's bytes or text whole, as ``json.loads`` does, within the
    reader's limits; ``ValueError`` if it is not JSON or holds more than they allow.

    For a file already trusted (a test's, a tool's): what it holds is not checked as it is
    read, so a file of the allowed size can still take many times that in memory. An
    upload is read by ``checking.check_file``, which checks each part as it comes.
    """
    result = None
    for part in Reader(content).parts():
        if part.key is None:
            return part.value
        result = {} if result is None else result
        if part.key not in result and len(result) == MAX_MEMBERS:
            raise ValueError(_("not a Scorekeeper export (more than %(most)s members)", most=MAX_MEMBERS))
        if part.index is None:
            result[part.key] = part.value
        elif part.index == START:
            result[part.key] = []
        elif part.index != END:
            result[part.key].append(part.value)
    return {} if result is None else result
