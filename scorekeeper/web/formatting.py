"""Template filters: numbers the way a score sheet shows them, times on the household's clock;
and ``remembered``, the parts of pages that a change leaves as they were."""

import datetime
import functools
import re
import threading
from collections import Counter
from collections.abc import Mapping

from babel import dates as babel_dates
from babel import numbers as babel_numbers
from markupsafe import Markup, escape

from ..recent import Recent
from ..scoring import language as engine_language
from ..scoring import words as engine_words
from ..scoring.deal import dealt
from ..scoring.language import N_, _
from ..scoring.presets import title
from ..scoring.words import DEFAULT, counted, join
from ..services.evenings import clock, local
from ..storage.faults import size_text
from .language import code, locale_of, translations

MINUS = "\u2212"  # a real minus sign: clearer than a hyphen at a glance
ANY = "any"  # books of any kind (scoring.ANY_BOOK)
_OUTCOMES = ("went_out", "other_went_out", "nobody_out")  # scoring.OUTCOMES
_CASE_WORDS = {
    "went_out": N_("for the team that went out"),
    "other_went_out": N_("when another team went out"),
    "nobody_out": N_("when nobody went out"),
}


def _locale():
    """The language being read, as Babel's Locale (English outside a request)."""
    return locale_of(code())


def _english():
    return code() == "en"


# Languages whose numbers of four digits are written whole: "5945", "15.945" (CLDR's
# minimumGroupingDigits of 2: Spanish, as the RAE writes it). Babel's data lacks the setting.
_GROUPED_FROM_FIVE = frozenset({"es"})


@functools.lru_cache(maxsize=16)
def _separators(code):
    """A language's thousands and decimal separators, as Babel has them: a table that turns
    Python's "1,234.5" into the language's ("1.234,5"). Every language the app speaks
    groups by three (Babel's pattern was parsed again for every number: a page has dozens)."""
    symbols = babel_numbers.get_decimal_symbol(code), babel_numbers.get_group_symbol(code)
    return str.maketrans({".": symbols[0], ",": symbols[1]})


def _written(value, spec):
    """``abs(value)`` as the language writes it, ``spec`` Python's grouped format (",", ",.1f")."""
    language = code()
    text = format(abs(value), spec)
    if language in _GROUPED_FROM_FIVE and abs(value) < 10_000:
        text = text.replace(",", "")
    return text.translate(_separators(language))


def number(value):
    """10000 -> "10,000" ("10.000" in Portuguese and Italian); -500 -> "−500"; 5945 -> "5,945"
    ("5945" in Spanish)."""
    text = _written(value, ",")
    return MINUS + text if value < 0 else text


def figure(value):
    """A chart's number, whole or not, grouped as the language writes it: 4195 -> "4,195"
    ("4.195"), 2.5 -> "2.5" ("2,5"), -40 -> "−40": written as ``number`` writes it."""
    return number(value)


def rating(value):
    """A fair rating, one decimal: 23.456 -> "23.5" ("23,5"); -1.04 -> "−1.0"."""
    text = _written(value, ",.1f")
    return MINUS + text if round(value, 1) < 0 else text


def trend(value):
    """A rating's change, with its sign and an arrow: "▲ +1.2", "▼ −0.8", "0.0"."""
    if round(value, 1) == 0:
        return rating(0)  # "0.0" ("0,0")
    return ("▲ +" if value > 0 else "▼ ") + rating(value)


def percent(value):
    """0.456 -> "46%" ("46 %" where a language spaces it)."""
    return babel_numbers.format_percent(value, locale=_locale())


def points(value):
    """Points with their sign: "+500", "−500", "0"."""
    return number(value) if value <= 0 else "+" + number(value)


def kind_label(kind):
    """A kind of book's label on a page that reads no one rule set (a player's books)."""
    return engine_words.kind_label(kind, code())


def books(counts, words=DEFAULT):
    """{"clean": 5, "dirty": 4} -> "5 clean + 4 dirty books"; {"any": 1} -> "1 book of any kind";
    {"clean": 1, "any": 3} -> "1 clean book, 3 books in all"; in the rule set's ``words``
    (``rules.say``) when given: "1 canasta of any kind"."""
    named = {kind: count for kind, count in counts.items() if kind != ANY and count}
    text = counted(named, words, " + ")
    total = counts.get(ANY, 0)
    if total:
        # Translators: a number of books: "3" "books"
        some = _("%(count)s %(books)s", count=total, books=words.count(total))
        if text:
            # Translators: "1 clean book, 3 books in all"
            return _("%(kinds)s, %(books)s in all", kinds=text, books=some)
        return _("%(books)s of any kind", books=some)
    return text or _("no %(books)s", books=words.books)


# a value's unit, as the rules pages write it after the points: " each", " more"
_UNITS = {"": "%(points)s", " each": N_("%(points)s each"), " more": N_("%(points)s more")}


def _with_unit(value, unit):
    return _(_UNITS[unit], points=points(value)) if unit else points(value)


def by_outcome(value, unit="", unmelded=None):
    """A rule value that may depend on how the round ended, in words:
    100 -> "+100 each"; by outcome -> "−500 each when another team went out, else 0";
    with a value for a team that melded nothing -> "+100 each; −100 for a team that melded nothing"
    (``unmelded``: who that is under the rules, ``not_melded_words``; ``unit``: "", " each"
    or " more")."""
    if not isinstance(value, Mapping):
        return _with_unit(value, unit)
    cases = [(key, value[key]) for key in _OUTCOMES]
    usual = Counter(v for _key, v in cases).most_common(1)[0][0]
    different = [(key, v) for key, v in cases if v != usual]
    if different:
        # Translators: "−500 each" "when another team went out"
        text = ", ".join(
            _("%(value)s %(case)s", value=_with_unit(v, unit), case=_(_CASE_WORDS[key]))
            for key, v in different
        )
        # Translators: "−500 each when another team went out", "0"
        text = _("%(cases)s, else %(value)s", cases=text, value=points(usual))
    else:
        text = _with_unit(usual, unit)
    if "not_melded" in value:
        # Translators: "+100 each", "−100", "a team that melded nothing"
        text = _(
            "%(usual)s; %(value)s for %(who)s",
            usual=text,
            value=points(value["not_melded"]),
            who=_("a team that melded nothing") if unmelded is None else unmelded,
        )
    return text


def not_melded_words(rules):
    """Who a value's not_melded case is for: "a team that melded nothing", or under
    Samba's rules "a team with fewer than 2 canastas"."""
    needed = rules.not_melded_books
    if not needed:
        return _("a team that melded nothing")
    return _("a team with fewer than %(count)s %(books)s", count=needed, books=rules.say.count(needed))


def deal_words(rules):
    """The piles dealt, in the rules' words: "11 cards in a hand and 11 in a foot",
    "15 cards in a hand, 13 in a knee and 11 in a foot", "15 cards in a hand, no foot"
    (a house that names a foot but deals none)."""
    piles = dealt(rules)
    if not piles:
        return ""
    (first, cards), *rest = piles
    text = join(
        [
            _("%(cards)s cards in a %(pile)s", cards=cards, pile=first),
            # Translators: after "11 cards in a hand": "and 11 in a foot"
            *(_("%(cards)s in a %(pile)s", cards=n, pile=name) for name, n in rest),
        ]
    )
    named = rules.say.piles
    if len(piles) == 1 and len(named) > 1:
        # Translators: "15 cards in a hand", "foot": "15 cards in a hand, no foot"
        text = _("%(deal)s, no %(pile)s", deal=text, pile=named[-1])
    return text


def deal_cards(rules):
    """The piles dealt, for a sheet's one line: "11 + 11 cards (hand and foot)",
    "15 + 13 + 11 cards (hand, knee and foot)", "15 cards" (one pile)."""
    piles = dealt(rules)
    if not piles:
        return ""
    text = _("%(cards)s cards", cards=" + ".join(str(cards) for _name, cards in piles))
    return f"{text} ({join([name for name, _cards in piles])})" if len(piles) > 1 else text


def day(stamp):
    """ "2026-11-23T02:30:00+00:00" -> "2026-11-22" where the evening was (English keeps the
    sheets' sortable dates); "22 de nov. de 2026" in Portuguese, as each language writes it."""
    moment = local(stamp)
    if not moment:
        return ""
    return moment.date().isoformat() if _english() else date_words(moment.date())


def numeric_day(stamp):
    """A day in digits, for a column of them: "2026-11-22" in English (as ``day``),
    "22/11/2026" in Portuguese, Spanish and Italian (``day``'s "22 de nov. de 2026" made a
    table of three columns too wide for a phone)."""
    moment = local(stamp)
    if not moment:
        return ""
    if _english():
        return moment.date().isoformat()
    return babel_dates.format_skeleton("yMMdd", moment.date(), locale=_locale())


def date_words(date):
    """A date as the language writes it, short: "22 de nov. de 2026", "22 nov 2026"."""
    # kept whole on one line, as an ISO date is (no-break spaces)
    return babel_dates.format_date(date, format="medium", locale=_locale()).replace(" ", "\u00a0")


def short_month(stamp):
    """ "2024-03-05T…" -> "Mar ’24" ("mar. de 24" in Portuguese): a chart's label."""
    moment = local(stamp)
    if not moment:
        return ""
    if _english():
        return f"{MONTH_NAMES[moment.month - 1][:3]} \u2019{moment.year % 100:02d}"
    return babel_dates.format_skeleton("MMMyy", moment.date(), locale=_locale()).replace(" ", "\u00a0")


def when(stamp):
    """ "2026-11-23T02:30:00+00:00" -> "2026-11-22 21:30" on the household's clock
    ("22 de nov. de 2026 21:30": the language's date, a 24-hour clock)."""
    if _english():
        return clock(stamp)
    moment = local(stamp)
    if not moment:
        return ""
    return f"{date_words(moment.date())}\u00a0{babel_dates.format_time(moment, 'HH:mm', locale=_locale())}"


def nowrap(text):
    """A text kept whole on its line (a day in digits: a phone breaks "2026-11-19" after a
    hyphen), for a sentence's placeholder: ``_("until %(day)s", day=stamp|day|nowrap)``."""
    return Markup('<span class="nowrap">%s</span>') % text


def address(url):
    """A link's address or a folder's path to show, breakable after each slash (a <wbr>):
    on a narrow phone it wraps between its parts, not inside one (a share link's token)."""
    return Markup("/<wbr>").join(escape(part) for part in str(url).split("/"))


MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def evening_day(key):
    """An evening's key as a short day: "2026-11-22" in English (as ``day``), "22 de nov. de
    2026" in Portuguese; a link to the evening, a record's night."""
    return key if _english() else date_words(datetime.date.fromisoformat(key))


def night(key):
    """ "2026-11-26" -> "Thursday 26 November 2026" (an evening as the pages name it;
    "quinta-feira, 26 de novembro de 2026" in Portuguese)."""
    date = datetime.date.fromisoformat(key)
    if _english():
        return f"{DAY_NAMES[date.weekday()]} {date.day} {MONTH_NAMES[date.month - 1]} {date.year}"
    return babel_dates.format_date(date, format="full", locale=_locale())


def month(key):
    """ "2026-11" -> "November 2026" (a month as the pages name it, in their language:
    "novembro de 2026"; strftime's names would follow the computer's locale)."""
    date = datetime.date(int(key[:4]), int(key[5:7]), 1)
    if _english():
        return f"{MONTH_NAMES[date.month - 1]} {date.year}"
    return babel_dates.format_skeleton("yMMMM", date, locale=_locale())


# Parts of pages that a change leaves as they were (a game's earlier rounds after a
# save), as rendered, keyed by everything they show (``remembered``).
_PARTS = Recent(512)  # a few dozen rounds of each of the games being played
_parts_lock = threading.Lock()


def _hashable(value):
    if isinstance(value, list | tuple):
        return tuple(_hashable(v) for v in value)
    return value


def remembered(key, render, *args):
    """``render(*args)`` (a template macro), or what it gave before for the same
    ``key``: the key must hold everything the part shows (the macro's name first)."""
    key = (code(), _hashable(key))  # the same part in another language is another part
    with _parts_lock:
        html = _PARTS.get(key)
    if html is not None:
        return html
    html = render(*args)
    with _parts_lock:
        _PARTS[key] = html
    return html


def page_numbers_css():
    """The CSS ``content`` of a printed sheet's page numbers in the reader's language,
    ``"Página " counter(page) " de " counter(pages)``: sheet.css says them in English, and a
    PDF's own <style> says them again in its language (``templates/sheets/_sheet.html``)."""
    words = _("Page %(page)s of %(pages)s", page="\x01", pages="\x02")
    counters = {"\x01": "counter(page)", "\x02": "counter(pages)"}  # in the language's order
    parts = []
    for text in re.split("([\x01\x02])", words):
        if text in counters:
            parts.append(counters[text])
        elif text:
            quoted = "".join(f"\\{ord(c):x} " if c in '"\\<>' else c for c in text)
            parts.append(f'"{quoted}"')
    return Markup(" ".join(parts))


def init_app(app):
    engine_language.use(translations, code, number)  # the engine's words and numbers
    app.jinja_env.globals["remembered"] = remembered
    app.jinja_env.globals["page_numbers_css"] = page_numbers_css
    app.jinja_env.filters.update(
        number=number,
        points=points,
        books=books,
        kind_label=kind_label,
        by_outcome=by_outcome,
        not_melded_words=not_melded_words,
        deal_words=deal_words,
        deal_cards=deal_cards,
        day=day,
        numeric_day=numeric_day,
        month=month,
        night=night,
        evening_day=evening_day,
        address=address,
        nowrap=nowrap,
        when=when,
        rating=rating,
        trend=trend,
        percent=percent,
        size=size_text,
        rule_set_name=title,  # a written rule set's name in the reader's language
    )
