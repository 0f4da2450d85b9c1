"""An export file read a value at a time (``read_history``), before ``checking`` checks it
whole: the same result as ``json.loads``, without holding the interpreter's lock for the
whole file."""

import json
import re

from ..scoring.language import _


def read_history(content):
    """Parse an export file's bytes or text; ``ValueError`` if it is not JSON.

    The same as ``json.loads``, a value at a time: an object's members, and each game of
    its ``games`` list, are parsed one by one. ``json.loads`` of years of games is one call
    that holds the interpreter's lock throughout (half a second for 8,000 games), and a
    phone's Save on another thread of the app waited that long (issue 42).
    """
    try:
        if isinstance(content, (bytes, bytearray)):  # as json.loads reads bytes
            text = content.decode(json.detect_encoding(content), "surrogatepass")
        elif content.startswith("\ufeff"):
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", content, 0)
        else:
            text = content
        return _members(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(_("not a JSON file (%(error)s)", error=error)) from None
    except RecursionError:
        raise ValueError(_("not a Scorekeeper export (nested too deeply)")) from None


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\n\r]*")


def _members(text):
    """``json.loads(text)``: an object's members (and the items of its ``games``) decoded
    one at a time; anything else whole."""
    at = _SPACE.match(text).end()
    if not text.startswith("{", at):
        return json.loads(text)
    result, at = {}, _SPACE.match(text, at + 1).end()
    if text.startswith("}", at):
        return _end(text, at + 1, result)
    while True:
        if not text.startswith('"', at):
            raise json.JSONDecodeError("Expecting property name enclosed in double quotes", text, at)
        key, at = _DECODER.raw_decode(text, at)
        at = _SPACE.match(text, at).end()
        if not text.startswith(":", at):
            raise json.JSONDecodeError("Expecting ':' delimiter", text, at)
        at = _SPACE.match(text, at + 1).end()
        if key == "games" and text.startswith("[", at):
            result[key], at = _items(text, at + 1)
        else:
            result[key], at = _DECODER.raw_decode(text, at)
        at = _SPACE.match(text, at).end()
        if text.startswith("}", at):
            return _end(text, at + 1, result)
        if not text.startswith(",", at):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
        at = _SPACE.match(text, at + 1).end()


def _items(text, at):
    """A list's items, decoded one at a time; (the list, where it ends)."""
    items, at = [], _SPACE.match(text, at).end()
    if text.startswith("]", at):
        return items, at + 1
    while True:
        item, at = _DECODER.raw_decode(text, at)
        items.append(item)
        at = _SPACE.match(text, at).end()
        if text.startswith("]", at):
            return items, at + 1
        if not text.startswith(",", at):
            raise json.JSONDecodeError("Expecting ',' delimiter", text, at)
        at = _SPACE.match(text, at + 1).end()


def _end(text, at, value):
    if _SPACE.match(text, at).end() != len(text):
        raise json.JSONDecodeError("Extra data", text, at)
    return value
