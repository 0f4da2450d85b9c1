"""The house-rules editor in the words of the rule set it shows (``scoring.words``).

``speak`` puts the words in the labels and hints of a ``RulesFields`` that
name a book, a kind of book or the piles, and keeps them on the fields for
the legends and hints of ``templates/rules/_fields.html``; the fields stay
the fields (the same names and ids, each label tied to its input), so the
page works and reads back as before. ``kind_names`` and ``kinds_written``:
the lists of books ("1 natural + 1 mixed") may name a kind as the words do.
"""

from ..scoring.language import N_, _
from ..scoring.words import DEFAULT, Words
from .rule_lists import ANY, book_kind, parse_books_by_round

# The labels and hints that name a book, a kind of book or the piles, in a rule
# set's words (%(book)s, %(Books)s, %(piles)s …: ``Words.said``); the declarations in
# forms.rules are Hand and Foot's, which these give back word for word.
# Translators: %(Books)s and %(Book)s are the rule set's word for books (or a book)
# with a capital letter, %(books)s without; %(pair)s and %(any)s are lists typed as
# examples ("1 clean + 1 dirty"), %(hand)s the first pile a player holds
_SAID = {
    "books_mode": (N_("%(Books)s needed to go out"), None),
    "books_any_to_go_out": (N_("To go out: %(books)s in all"), None),
    "books_by_round": (
        N_("%(Books)s to go out, by round"),
        N_(
            "A round a line (or split by ;), like %(pair)s. "
            "The last round repeats; write none for a round with no %(books)s needed."
        ),
    ),
    "not_melded_books": (N_("“Melded nothing” until a team has this many %(books)s"), None),
    "red_three_book": (N_("%(Book)s of red 3s: bonus each"), None),
    "black_three_book": (N_("%(Book)s of black 3s: bonus each"), None),
    "first_meld_books": (
        N_("First meld must hold these %(books)s"),
        N_(
            "Like %(pair)s, or %(any)s; one round a line, the last repeats, "
            "none for a round without. Empty: no %(books)s needed."
        ),
    ),
    "deal_hand": (N_("Cards in a %(hand)s"), None),
}


def speak(fields, words: Words) -> None:
    """Put a rule set's words in the labels and hints of a ``RulesFields`` that
    name a book, a kind of book or the piles ("To go out: canastas in all").

    Called by the views once the form is built (the fields stay the same,
    each label still tied to its input). The words are kept on the fields for
    the template's legends and hints; fields never spoken to say Hand and
    Foot's. The words fieldset keeps explaining those, the defaults.

    :param fields: a ``RulesFields`` or a ``FormField`` that embeds one.
    """
    fields = getattr(fields, "form", fields)
    fields.words = words  # for the legends and hints of templates/rules/_fields.html
    hand = words.piles[0]
    # a book of any kind as the first meld's and going out's lists accept it
    # Translators: an example the rules editor reads, "1 canastra (of any kind)": keep
    # "1 %(book)s" as it is, and say "of any kind" in your language
    anyone = _("1 %(book)s (of any kind)", book=words.book)
    if not words.usual and _written_as(words.book) != ANY:
        # Translators: an example the rules editor reads: "any" is typed, and it also reads
        # "qualquer", "cualquiera" and "qualsiasi" in its place
        anyone = _("1 any (%(book)s of any kind)", book=words.book)
    kinds = ["clean", "dirty", *(book_kind(row["kind"].data) for row in fields["extra_books"])]
    pair = "1 {} + 1 {}".format(*usual_kinds_written(words, kinds))
    for name, (label, description) in _SAID.items():
        fields[name].label.text = words.said(label, hand=hand)
        if description:
            fields[name].description = words.said(description, any=anyone, pair=pair)
    for kind in ("clean", "dirty"):  # the legends of their groups
        fields[f"book_{kind}"].label.text = words.book_label(kind)
    for row in fields["extra_books"]:
        row.label.text = _("Another kind of %(book)s", book=words.book)
        row["kind"].label.text = _("Kind of %(book)s", book=words.book)
    knee, foot = fields["deal_knee"], fields["deal_foot"]
    if words.piles == DEFAULT.piles:
        return  # Hand and Foot's: as declared
    last = words.piles[-1] if len(words.piles) > 1 else None
    if len(words.piles) > 2:
        knee.label.text = _("Cards in a %(pile)s", pile=words.piles[1])
    else:
        knee.label.text = _("Cards in a middle pile")
    if last:
        knee.description = _("Dealt between the %(hand)s and the %(last)s; 0 for none.", hand=hand, last=last)
        foot.label.text = _("Cards in a %(pile)s", pile=last)
        foot.description = _("0 for a game without a %(pile)s.", pile=last)
    else:
        knee.description = _("Dealt between the %(hand)s and the last pile; 0 for none.", hand=hand)
        foot.label.text = _("Cards in a last pile")
        foot.description = _("Played after the %(hand)s; 0 for a game with a %(hand)s only.", hand=hand)


def kind_names(called, kinds) -> dict[str, str]:
    """{"natural": "clean"}: the kinds the lists of books may be written with by
    their names (``words.kinds``), each as ``book_kind`` reads it, to its kind;
    only a name that is no kind's own and is one kind's only."""
    names = {}
    for kind, name in called.items():
        if _written_as(name) not in (None, ANY):
            names.setdefault(book_kind(name), []).append(kind)
    return {name: found[0] for name, found in names.items() if len(found) == 1 and name not in kinds}


def usual_kinds_written(words, kinds):
    """(clean, dirty) as the lists of books may name them: by the words' names
    where those are not ambiguous ("natural", "mixed"), else by the kinds."""
    named = {kind: words.kinds[kind] for kind in kind_names(words.kinds, kinds).values()}
    return named.get("clean", "clean"), named.get("dirty", "dirty")


def _written_as(name):
    """The kind "1 <name>" is read as in a list of books, if it reads as that name at all."""
    try:
        (counts,) = parse_books_by_round(f"1 {name}")
    except ValueError:
        return None
    kind = next(iter(counts)) if len(counts) == 1 else None
    return kind if kind in (ANY, book_kind(name)) else None


def kinds_written(words, kinds):
    """{what a list of books may say: its kind}: a kind's name ("natural"), and
    either followed by what the words call a book ("natural canastas")."""
    names = kind_names(words.get("kinds", {}), kinds) | {kind: kind for kind in kinds if kind}
    endings = {book_kind(words.get("book", "book")), book_kind(words.get("books", "books"))}
    return names | {f"{name}_{end}": kind for name, kind in names.items() for end in endings}
