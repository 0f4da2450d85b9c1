"""What a rule set calls things: the game, a book, each kind of book, the piles a player holds.

A house-rules file may carry a ``words`` object beside its values::

    "words": {"game": "Canasta", "book": "canasta", "books": "canastas",
              "kinds": {"clean": "natural", "dirty": "mixed"}, "piles": ["hand"]}

Every key is optional; what a file leaves out is Hand and Foot's (``DEFAULT``),
so a file written before words existed reads and writes back as it was. The
screens, sheets, change log and exports ask ``rules.say`` (a ``Words``) and
never spell "book" or "foot" themselves.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from .language import N_, _
from .local_words import LOCAL, PLURALS

MAX_WORD_LENGTH = 40
MAX_PILES = 4
_KEYS = ("game", "book", "books", "kinds", "piles")
#: Hand and Foot's own labels for its usual kinds, when a file does not name them
_BOOK_LABELS = {
    "clean": N_("Clean (red) books"),
    "dirty": N_("Dirty (black) books"),
    "sevens": N_("Books of 7s"),
    "wild": N_("Wild-card books"),
}
_CONTROL = re.compile(r"[\x00-\x1f\x7f<>{}]")


def join(parts: Sequence[str], last: str = "and") -> str:
    """["a", "b", "c"] -> "a, b and c" ("or": "a, b or c"), in the reader's language."""
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    items = ", ".join(parts[:-1])
    if last == "and":
        # Translators: a list's last two items, like "hand, knee and foot"
        return _("%(items)s and %(last)s", items=items, last=parts[-1])
    if last == "or":
        # Translators: a list's last two items, like "hand, knee or foot"
        return _("%(items)s or %(last)s", items=items, last=parts[-1])
    return f"{items} {last} {parts[-1]}"


def _word(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{where}: must be a word or a few, not {value!r}")
    text = " ".join(value.split())
    if not text:
        raise ValueError(f"{where}: must not be empty")
    if len(text) > MAX_WORD_LENGTH:
        raise ValueError(f"{where}: at most {MAX_WORD_LENGTH} characters")
    if _CONTROL.search(text):
        raise ValueError(f"{where}: letters, digits, spaces and punctuation only (no <, >, {{ or }})")
    return text


def check_words(value: Any, kinds: Sequence[str]) -> dict[str, Any] | None:
    """A file's ``words``, checked and in the file format's order; None for none at all.

    :param kinds: the kinds of book the rules score (a name for another is refused)
    """
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise ValueError(f"words: must be an object ({', '.join(_KEYS)}), not {value!r}")
    for key in value:
        if key not in _KEYS:
            raise ValueError(f"words.{key}: not a word these rules name (they are {', '.join(_KEYS)})")
    words: dict[str, Any] = {}
    for key in ("game", "book", "books"):
        if key in value:
            words[key] = _word(value[key], f"words.{key}")
    if ("book" in words) != ("books" in words):
        raise ValueError("words.books: give both book and books (one and more than one)")
    if "kinds" in value:
        given = value["kinds"]
        if not isinstance(given, Mapping):
            raise ValueError(f"words.kinds: must be an object of kinds and names, not {given!r}")
        for kind in given:
            if kind not in kinds:
                raise ValueError(
                    f"words.kinds.{kind}: not a kind of book these rules score ({', '.join(kinds)})"
                )
        if given:
            words["kinds"] = {
                kind: _word(given[kind], f"words.kinds.{kind}") for kind in kinds if kind in given
            }
    if "piles" in value:
        piles = value["piles"]
        if isinstance(piles, (str, Mapping)) or not isinstance(piles, Sequence) or not piles:
            raise ValueError('words.piles: must be a list of the piles a player holds, like ["hand", "foot"]')
        if len(piles) > MAX_PILES:
            raise ValueError(f"words.piles: at most {MAX_PILES} piles")
        words["piles"] = tuple(_word(p, "words.piles") for p in piles)
    return words or None


@dataclass(frozen=True)
class Words:
    """A rule set's words, every one given (the file's, else Hand and Foot's)."""

    game: str = "Hand and Foot"
    book: str = "book"
    books: str = "books"
    kinds: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    piles: tuple[str, ...] = ("hand", "foot")
    # Only in the tables of a language (``LOCAL``), never in a file: a kind's whole
    # label ("Canastras limpas": the adjective after the noun), the round and going out
    labels: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    round: str = "round"
    going_out: str = "going out"
    # each pile with the word for "in" its language puts before it ("na mão", "no morto",
    # "nel pozzetto"); only in the tables of a language, empty for a family's own piles
    piles_in: tuple[str, ...] = ()
    # each kind as counted for more than one ("limpas", "sporchi"); only in the tables of a
    # language, where the adjective agrees in number (English's "clean" stays as it is)
    kinds_many: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # the word for books said with the first count, its adjective after it: "4 canastras limpas
    # + 5 sujas" (pt, es, it); English says it once after the counts, "4 clean + 5 dirty books"
    noun_first: bool = False

    @classmethod
    def of(cls, words: Mapping[str, Any] | None, language: str = "en") -> Words:
        """The words of a checked ``words`` object (``check_words``), Hand and Foot's for the rest.

        In another language than English, a preset's words (Hand and Foot's for
        none) are that language's (``local``); a family's own words stay as typed,
        and what they leave out is Hand and Foot's in that language.
        """
        if language == "en":
            return cls(**dict(words or {}))
        return local(words, language) or _own(cls, words, language)

    @property
    def packet(self) -> str:
        """The second packet, taken when the first pile is played out: the last pile ("foot", "morto")."""
        return self.piles[-1]

    @property
    def usual(self) -> bool:
        """Whether a book is called a book (Hand and Foot's own labels then apply)."""
        return self.book == "book" and self.books == "books"

    def count(self, n: int) -> str:
        """ "book" for one, "books" for any other number."""
        return self.book if n == 1 else self.books

    def kind(self, kind: str, n: int = 1) -> str:
        """A kind as counted, ``n`` of them: "clean", "natural", "sevens" ("limpa", "limpas")."""
        if n != 1 and kind in self.kinds_many:
            return self.kinds_many[kind]
        return self.kinds.get(kind) or kind.replace("_", " ")

    def book_label(self, kind: str) -> str:
        """A kind's label on the round form and sheets: "Clean (red) books", "Natural canastas"."""
        if kind in self.labels:
            return self.labels[kind]
        if kind not in self.kinds and self.usual and kind in _BOOK_LABELS:
            return _(_BOOK_LABELS[kind])
        # Translators: a kind of book and the word for books, like "Natural canastas";
        # put them in your language's order ("%(books)s %(kind)s")
        return capital(_("%(kind)s %(books)s", kind=self.kind(kind), books=self.books))

    @property
    def piles_and(self) -> str:
        """ "hand and foot", "hand", "hand, knee and foot"."""
        return join(self.piles)

    @property
    def left_in(self) -> str:
        """ "in hand and foot" ("na mão e no pé", "in mano e nel pozzetto"): where cards are left."""
        if self.piles_in:
            return join(self.piles_in)
        # Translators: where cards are left, "in hand and foot" (%(piles)s: "hand and foot")
        return _("in %(piles)s", piles=self.piles_and)

    @property
    def hand_in(self) -> str:
        """ "in hand" ("na mão", "en la mano"): the first pile alone."""
        if self.piles_in:
            return self.piles_in[0]
        return _("in %(piles)s", piles=self.piles[0])

    @property
    def left_in_or(self) -> str:
        """ "in hand or foot" ("na mão ou no pé", "en la mano o en el pie"): where a card is caught."""
        if self.piles_in:
            return join(self.piles_in, "or")
        return _("in %(piles)s", piles=self.piles_or)

    @property
    def piles_or(self) -> str:
        """ "hand or foot", "hand", "hand, knee or foot"."""
        return join(self.piles, "or")

    def said(self, message: str, **values: Any) -> str:
        """``message`` in the reader's language with these words in it: %(book)s,
        %(books)s, %(Book)s, %(Books)s, %(piles)s, %(piles_or)s, %(game)s, %(packet)s,
        %(Packet)s, and ``values``' own."""
        return _(message, **self._placeholders(), **values)

    def _placeholders(self) -> dict[str, str]:
        return {
            "book": self.book,
            "books": self.books,
            "Book": capital(self.book),
            "Books": capital(self.books),
            "piles": self.piles_and,
            "piles_or": self.piles_or,
            "piles_in": self.left_in,
            "game": self.game,
            "packet": self.packet,
            "Packet": capital(self.packet),
        }

    def fill(self, text: str) -> str:
        """A text with the words put in: {book}, {books}, {Book}, {Books}, {piles}, {piles_or},
        {game}, {packet}, {Packet}."""
        return text.format(
            book=self.book,
            books=self.books,
            Book=capital(self.book),
            Books=capital(self.books),
            piles=self.piles_and,
            piles_or=self.piles_or,
            piles_in=self.left_in,
            game=self.game,
            packet=self.packet,
            Packet=capital(self.packet),
        )


def counted(named: Mapping[str, int], words: Words, between: str = " + ") -> str:
    """{"clean": 4, "dirty": 5} -> "4 clean + 5 dirty books" ("4 canastras limpas + 5 sujas"), the
    counts joined by ``between`` ("and": as the language joins a list, "4 clean and 5 dirty");
    "" for none. Each kind agrees with its count ("1 limpa", "4 limpas"), and in Portuguese,
    Spanish and Italian the word for books follows the first count (``Words.noun_first``; issue
    56: "Para bater: canastra: 1 limpa")."""
    if not named:
        return ""
    (kind, count), *others = named.items()
    parts = [f"{n} {words.kind(k, n)}" for k, n in others]
    if between == "and":
        rest = join(["", *parts]) if parts else ""  # " and 5 dirty", ", 5 dirty and 2 wild"
    else:
        rest = "".join(f"{between}{part}" for part in parts)
    if words.noun_first:
        return f"{count} {words.count(count)} {words.kind(kind, count)}{rest}"
    kinds = f"{count} {words.kind(kind, count)}{rest}"
    # Translators: counts of kinds of books, then the word for books: "5 clean + 4 dirty" "books"
    return _("%(kinds)s %(books)s", kinds=kinds, books=words.count(sum(named.values())))


def capital(text: str) -> str:
    """The first letter in upper case, the rest as written ("natural canastas" -> "Natural canastas")."""
    return text[:1].upper() + text[1:]


DEFAULT = Words()


def _key(value: Any) -> Any:
    """A words object as something to look up by: lists and tuples alike, keys in order."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_key(v) for v in value)
    return value


def _words(given: Mapping[str, Any]) -> Words:
    return Words(
        **{
            key: MappingProxyType(dict(v))
            if isinstance(v, Mapping)
            else tuple(v)
            if key in ("piles", "piles_in")
            else v
            for key, v in given.items()
        }
    )


def _plurals(words: Mapping[str, Any], language: str) -> dict[str, Any]:
    """A language's table with its kinds counted in the plural (``PLURALS``) beside them."""
    table = PLURALS.get(language, {})
    many = {kind: table[word] for kind, word in words.get("kinds", {}).items() if word in table}
    return {**words, "kinds_many": many, "noun_first": True} if language in PLURALS else dict(words)


_LOCAL = {
    (_key(english), language): _words(_plurals(words, language))
    for english, languages in LOCAL
    for language, words in languages.items()
}


def add_language(language: str, tables: Iterable[tuple[Mapping[str, Any] | None, Mapping[str, Any]]]) -> None:
    """Another language's words for the written rule sets, as ``LOCAL`` gives them: (a
    preset's words, None for Hand and Foot's; the words in ``language``) for each. For a
    language made at run time: the tests' pseudo-language marks every word, so that a word
    a page shows outside them is found."""
    for english, words in tables:
        _LOCAL[_key(english), language] = _words(words)


def _languages(language: str) -> tuple[str, ...]:
    """ "pt_BR", then "pt": a table for the region, else the language's."""
    return (language, language.split("_")[0]) if "_" in language else (language,)


def local(words: Mapping[str, Any] | None, language: str) -> Words | None:
    """A written rule set's words (Hand and Foot's for None) in ``language``, or None
    when these words are no preset's or the language has no table (English)."""
    key = _key(words)
    return next((_LOCAL[key, lang] for lang in _languages(language) if (key, lang) in _LOCAL), None)


def _own(cls: type[Words], words: Mapping[str, Any] | None, language: str) -> Words:
    """A family's own words, as typed; what they leave out is Hand and Foot's in ``language``."""
    given = dict(words or {})
    base = local(None, language) or cls()
    labels = (
        {} if "book" in given else {k: v for k, v in base.labels.items() if k not in given.get("kinds", {})}
    )
    kinds = {**base.kinds, **given.get("kinds", {})} if "book" not in given else given.get("kinds", {})
    # the plural of a kind left as the language's, never of a kind the family named
    named = given.get("kinds", {})
    many = {} if "book" in given else {k: v for k, v in base.kinds_many.items() if k not in named}
    return dataclasses.replace(
        base,
        **{key: v for key, v in given.items() if key != "kinds"},
        kinds=MappingProxyType(kinds),
        kinds_many=MappingProxyType(many),
        labels=MappingProxyType(labels),
        piles_in=() if "piles" in given else base.piles_in,  # "in" before the family's own piles
    )


def kind_label(kind: str, language: str) -> str:
    """A kind of book's label where no one rule set is read (a player's books over every game):
    Hand and Foot's in ``language``, else that of the first written rule set that scores the kind
    ("ace_to_ace" -> "Canastras de ás a ás"), else the kind's key worded by Hand and Foot's.
    English keeps the labels its pages have always had ("Clean books")."""
    if language == "en":
        return _("%(kind)s books", kind=capital(kind.replace("_", " ")))
    for english, _languages_words in ((None, None), *LOCAL):
        words = Words.of(english, language)
        if kind in words.labels or kind in words.kinds or (words.usual and kind in _BOOK_LABELS):
            return words.book_label(kind)
    return Words.of(None, language).book_label(kind)
