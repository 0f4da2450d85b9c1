"""Blueprints, one module each: parse the request, call one service, render.

Ids in URLs use the ``id`` converter: a whole number SQLite can hold, so an
id past its range is a plain 404 rather than an error deep in a query.
"""

from flask import abort, request
from werkzeug.routing import IntegerConverter

from ..scoring.language import _

SQLITE_MAX = 2**63 - 1


class IdConverter(IntegerConverter):
    """``<id:game_id>``: 1 up to SQLite's largest integer."""

    def __init__(self, map, *args, **kwargs):
        super().__init__(map, min=1, max=SQLITE_MAX)


def found(value, description):
    """``value``, or a 404 page saying ``description`` when it is None."""
    if value is None:
        abort(404, description=description)
    return value


def posted_or_filled(form_class, **shown):
    """The form as the phone posted it, or for the page, filled with what it shows.

    A posted form is read from the post alone: a revision the phone did not
    send stays missing (a stale page, refused), never the game's current one.
    """
    return form_class() if request.method == "POST" else form_class(**shown)


def page_number(args, *, lenient=False):
    """The ?page= number (1 when missing); when it is no page number, a 404,
    or page 1 if ``lenient`` (a filter page keeps working with a mistyped link)."""
    text = args.get("page", "1")
    if text.isascii() and text.isdigit() and len(text) < 7 and int(text) > 0:
        return int(text)
    if lenient:
        return 1
    abort(404, description=_("There is no such page."))


def init_app(app):
    app.url_map.converters["id"] = IdConverter
