"""The engine's words in the reader's language, without the engine knowing who reads.

What the engine says (a check's message, a breakdown's label, a rule in words) is
marked with ``_`` or ``ngettext``, so ``pybabel extract`` finds it, and translated
when it is said, by the translations the app hands ``use`` (Flask-Babel's, the
request's language). Outside the app (the engine's own tests, a script) it is
English. A constant written once at import is marked with ``N_`` and translated
where it is shown (``_(CONSTANT)``). What is kept and read later by every phone,
in any language (a change-log line), is worded inside ``english()``.

Placeholders are ``%(name)s``, as Flask-Babel's and Jinja's are, so a translator
meets one kind everywhere. The engine imports no Flask: it only calls back.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol


class Translations(Protocol):
    def gettext(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


_NULL = _gettext.NullTranslations()
_english: ContextVar[bool] = ContextVar("english", default=False)
_source: Callable[[], Translations] = lambda: _NULL  # noqa: E731
_language: Callable[[], str] = lambda: "en"  # noqa: E731


def _english_number(value: int) -> str:
    text = f"{abs(value):,}"
    return "\u2212" + text if value < 0 else text


_number: Callable[[int], str] = _english_number
_hooks = 0  # how many times ``use`` has set the hooks: what ``words_key`` tells them apart by


def use(
    translations: Callable[[], Translations],
    language: Callable[[], str],
    number: Callable[[int], str] = _english_number,
) -> tuple[Callable[[], Translations], Callable[[], str], Callable[[int], str]]:
    """Where the words come from: ``translations()`` the catalog being read now,
    ``language()`` its language's code ("en", "pt_BR"), ``number(n)`` a number as it
    writes them ("1,234", "1.234"). Returns what was used before (``use(*before)`` puts
    it back)."""
    global _source, _language, _number, _hooks
    before = _source, _language, _number
    _source, _language, _number = translations, language, number
    _hooks += 1
    return before


def _(message: str, **values: Any) -> str:
    """``message`` in the reader's language, its ``%(name)s`` filled from ``values``."""
    text = _translations().gettext(message)
    return text % values if values else text


def ngettext(singular: str, plural: str, n: int, **values: Any) -> str:
    """One or many, in the reader's language; ``%(num)s`` is ``n``."""
    text = _translations().ngettext(singular, plural, n)
    return text % {"num": n, **values}


def N_(message: str) -> str:
    """A message marked for translation, translated later where it is shown."""
    return message


def language() -> str:
    """The language being read: "en", "pt_BR", "es", "it"."""
    return "en" if _english.get() else _language()


def words_key() -> tuple:
    """What the words are read from now: the language, and the hook that gives its catalog
    (``use``). A cache of worded things keys on it, so that words made under one hook are
    never handed out under another (the app sets its hook once; a test may set its own)."""
    return (language(), 0 if _english.get() else _hooks)


def number(value: int) -> str:
    """A number as the reader's language writes it: 1234 -> "1,234" ("1.234"), -5 -> "−5"."""
    return _english_number(value) if _english.get() else _number(value)


def _translations() -> Translations:
    return _NULL if _english.get() else _source()


@contextmanager
def english() -> Iterator[None]:
    """Words in English inside, whatever the reader's language: for text that is kept
    (a change-log line is stored once and read later by every phone, in any language)."""
    token = _english.set(True)
    try:
        yield
    finally:
        _english.reset(token)
