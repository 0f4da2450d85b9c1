"""How large a request's body may be, by what its route takes (docs/SECURITY.md).

A form is a few kilobytes; only the imports take files of megabytes. A view that takes
more than ``MAX_CONTENT_LENGTH`` (the app's default, 1 MB) says so with ``takes``; the
same figure bounds the body twice:

- **the server** (``web/server.py``) asks ``Limits.of`` before it reads a byte of the
  body, refuses one announced larger at once, and stops reading one that grows past it;
- **the app** (``init_app``) sets it on the request before anything reads the form, and
  refuses (413, the error page in the reader's language) a request whose body the server
  refused, before any view or hook acts on it.

Every body the app takes is a form (urlencoded or multipart). Flask-WTF would read a JSON
body as a form too, with its CSRF token in a header: no page of ours sends one, a list or a
number in it made every form answer 500, and a guess sent so went uncounted (issue 53). A
JSON body is refused (415) before anything reads it.
"""

from flask import abort, current_app, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect


def takes(largest, *, in_fields=False):
    """A view whose request body may be ``largest`` bytes (``in_fields``: a file sent back
    in a text field, as the past games' preview does, counts against it too)."""

    def mark(view):
        view.largest_body = (largest, in_fields)
        return view

    return mark


def _taken(app, endpoint):
    """(largest body, in fields) for the view at ``endpoint``: its own, or the app's default."""
    view = app.view_functions.get(endpoint)
    return getattr(view, "largest_body", None) or (app.config["MAX_CONTENT_LENGTH"], False)


class Limits:
    """The largest body of a request, known from its method and path alone (the server
    asks before it reads the body; one thread, the server's, asks)."""

    def __init__(self, app):
        self.app = app
        self.routes = app.url_map.bind("localhost")

    def of(self, method, path):
        try:
            endpoint, _ = self.routes.match(path, method)
        except (HTTPException, RequestRedirect):  # no such page: the default, then a 404
            return self.app.config["MAX_CONTENT_LENGTH"]
        return _taken(self.app, endpoint)[0]


def init_app(app):
    @app.url_value_preprocessor
    def _bound_the_body(endpoint, values):
        # before every before_request function, CSRFProtect's included, which reads the form
        largest, in_fields = _taken(current_app, endpoint)
        request.max_content_length = largest
        if in_fields:
            request.max_form_memory_size = largest

    @app.before_request
    def _refuse_a_refused_body():
        # the server stopped reading a body past the limit (and says how much it had), or a
        # client announced one: the view never runs on what is missing
        if request.content_length is not None and request.content_length > request.max_content_length:
            abort(413)
        if request.is_json and request.method not in ("GET", "HEAD", "OPTIONS"):
            abort(415)  # the app takes forms (see the module)
