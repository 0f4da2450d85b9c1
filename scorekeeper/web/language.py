"""The language a page is in: the phone's own choice, else the household's, else the
phone's (its Accept-Language), else English.

- A phone chooses its language at the foot of every page (``/language/<code>``, kept in
  its session): a guest reads their own language whatever the household set.
- The household sets one in settings (``instance/language``): every phone that has not
  chosen reads it, and so does what the computer prints by itself (the sheets printed
  ahead, the pictures drawn when a game ends, the command line). Left at "each phone's
  own", a phone reads its Accept-Language and the computer English.

Catalogs are ``scorekeeper/translations/<code>/LC_MESSAGES/messages.po`` (compiled to
``.mo`` by make); docs/LANGUAGES.md says how to add a string or a language. The JSON
twins and exports are English whatever the language (``english``).
"""

import contextlib
import functools
import os
from contextvars import ContextVar
from typing import Any

import flask_babel
from babel import Locale
from babel.support import Translations
from flask import current_app, has_app_context, has_request_context, request, session

from ..storage.private import write_whole

#: the languages with a catalog, by code, each named in its own words
LANGUAGES = {
    "en": "English",
    "pt_BR": "Português (Brasil)",
    "es": "Español",
    "it": "Italiano",
}
FILE = "language"  # the household's language, in the instance folder
#: the catalogs: <code>/LC_MESSAGES/messages.mo
FOLDER = os.path.join(os.path.dirname(os.path.dirname(__file__)), "translations")
EACH_PHONE = ""  # the household's setting when each phone reads its own
HOUSEHOLD = "household"  # a phone's choice to read the household's language again


def known():
    """The languages offered: ``LANGUAGES`` (a test's app may add its own)."""
    return (current_app.config.get("LANGUAGES") if has_app_context() else None) or LANGUAGES


def household_language(instance_path=None):
    """The household's language code, or "" for each phone's own."""
    path = os.path.join(instance_path or current_app.instance_path, FILE)
    try:
        with open(path, encoding="utf-8") as file:
            code = file.read().strip()
    except OSError:
        return EACH_PHONE
    return code if code in known() else EACH_PHONE


def set_household_language(code):
    """Keep the household's language ("" for each phone's own)."""
    path = os.path.join(current_app.instance_path, FILE)
    if code:
        write_whole(path, code + "\n", first=False)
    elif os.path.exists(path):
        os.remove(path)


def phone_language():
    """The language this phone chose, or None."""
    code = session.get("language")
    return code if code in known() else None


def select():
    """Flask-Babel's locale selector (see the module's docstring for the order)."""
    if has_request_context():
        chosen = phone_language()
        if chosen:
            return chosen
    household = household_language()
    if household:
        return household
    if has_request_context():
        asked = from_header(request.accept_languages, list(known()))
        if asked:
            return asked
    return "en"


def from_header(accepted, codes):
    """The first language the phone lists that we speak, in the phone's order: its own
    region's ("pt-BR"), else another region's ("pt-PT", "es-MX", "it-CH" read as pt_BR, es,
    it); a language it ranks lower never wins (werkzeug's best_match would let an exact
    "en;q=0.5" beat a first "es-MX")."""
    for value, quality in accepted:  # best first
        if quality <= 0 or value == "*":
            continue
        tag = value.replace("_", "-").lower()
        for known_code in codes:
            if known_code.replace("_", "-").lower() == tag:
                return known_code
        for known_code in codes:
            if known_code.split("_")[0].lower() == tag.split("-")[0]:
                return known_code
    return None


# The request's language and catalog, chosen once as it starts (``bind``) and read by every
# string a page says: Flask-Babel's own look-up walks ``g`` three or four times a string,
# and a page says hundreds (it made the pages two to three times slower). Outside a
# request (the background's printing, the command line) it is Flask-Babel's, as before.
_BOUND: ContextVar[tuple[str, Any] | None] = ContextVar("scorekeeper_language", default=None)


def _chosen():
    """(the language Flask-Babel chooses now, its catalog). Each catalog is read once per app:
    Flask-Babel 4 makes its Domain, and so its cache, afresh for every look-up, and read the
    .mo file again each time."""
    locale = flask_babel.get_locale()
    if locale is None:  # no app context: English
        return "en", flask_babel.get_translations()
    language = str(locale)
    catalogs = current_app.extensions.setdefault("scorekeeper.catalogs", {})
    catalog = catalogs.get(language)
    if catalog is None:
        catalog = catalogs[language] = flask_babel.get_translations()
    return language, catalog


def bind():
    """Choose this request's language once (before any other hook says anything)."""
    _BOUND.set(_chosen())


def unbind(_error=None):
    _BOUND.set(None)


def rebind():
    """After a change of language within a request: say the rest in the new one."""
    flask_babel.refresh()
    bind()


def _current():
    bound = _BOUND.get()
    return bound if bound is not None else _chosen()


def translations():
    """The catalog being read now."""
    return _current()[1]


def code():
    """The language being read now, as a code ("en", "pt_BR")."""
    return _current()[0]


def html_lang():
    """The page's ``lang``: "pt-BR", "en"."""
    return code().replace("_", "-")


@contextlib.contextmanager
def speaking(code):
    """Everything said inside in the language ``code``, whatever the request's."""
    with flask_babel.force_locale(code):
        token = _BOUND.set(_chosen())
        try:
            yield
        finally:
            _BOUND.reset(token)


def english(view):
    """A view whose answer is the same in every language (the JSON twins, exports)."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        with speaking("en"):
            return view(*args, **kwargs)

    return wrapped


def in_household_language(view):
    """A view whose answer is in the household's language when it has one (a file the
    family keeps on its computer), else in the page's."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        household = household_language()
        if not household:
            return view(*args, **kwargs)
        with speaking(household):
            return view(*args, **kwargs)

    return wrapped


@functools.lru_cache(maxsize=16)
def catalog(code):
    """The catalog of ``code`` read from its file, outside any request: for what is read
    in every language at once (the columns of a spreadsheet of past games)."""
    return Translations.load(FOLDER, [code])


@functools.lru_cache(maxsize=16)
def locale_of(code):
    return Locale.parse(code)


def init_app(app):
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", FOLDER)
    flask_babel.Babel(app, locale_selector=select)
    # Jinja's _() and ngettext() read the request's bound catalog (Jinja formats them)
    app.jinja_env.install_gettext_callables(
        gettext=lambda message: translations().gettext(message),
        ngettext=lambda singular, plural, n: translations().ngettext(singular, plural, n),
        pgettext=lambda context, message: translations().pgettext(context, message),
        npgettext=lambda context, singular, plural, n: translations().npgettext(context, singular, plural, n),
        newstyle=True,
    )
    # first of every hook: a page refused by an earlier one (an unknown Host) is worded too
    app.before_request_funcs.setdefault(None, []).insert(0, bind)
    app.teardown_request(unbind)
    app.jinja_env.globals.update(html_lang=html_lang, language_choices=choices)


def choices():
    """The links at the foot of every page: (code, name in its own words, chosen), and
    whether the phone reads the household's language (it chose none)."""
    now = code()
    return [(c, name, c == now) for c, name in known().items()], phone_language() is None
