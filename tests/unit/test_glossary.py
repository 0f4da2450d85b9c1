"""Every catalog says each of the games' words the one way its glossary gives (issue 56)."""

import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

FOLDER = Path(__file__).resolve().parents[2] / "scorekeeper" / "translations"
WHOLE = tomllib.loads((FOLDER / "glossary.toml").read_text(encoding="utf-8"))
GLOSSARY = WHOLE["term"]
LANGUAGES = ("pt_BR", "es", "it")
# A placeholder names a value, not a word: "%(books)s" is the rule set's own word; what the
# rules editor reads ("1 clean + 1 dirty") is typed in English whatever the language.
# A command stays as typed too (<code>… passcode</code>).
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}|<code>.*?</code>|`[^`]*`|" + WHOLE["typed"])


def entries(language):
    with open(FOLDER / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalog = read_po(file)
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        yield " / ".join(ids), [s for s in strings if s]


def words(text):
    return PLACEHOLDER.sub("", text)


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_glossary_word_is_said_with_its_term(language):
    wrong = []
    for msgid, strings in entries(language):
        for term in GLOSSARY:
            word = term[language]
            if re.search(term["english"], words(msgid), re.I) and msgid not in term.get("unsaid", ()):
                for string in strings:
                    if not re.search(word["uses"], words(string), re.I):
                        wrong.append(f"{term['name']} → {word['use']}: {msgid!r} → {string!r}")
            never = word.get("never")
            for string in strings:
                if never and re.search(never, string, re.I):
                    wrong.append(f"{term['name']}: not {never!r}: {msgid!r} → {string!r}")
    assert not wrong, f"{len(wrong)} entries in {language}:\n" + "\n".join(wrong)


def test_the_glossary_gives_every_language_a_term():
    for term in GLOSSARY:
        for language in LANGUAGES:
            assert term[language]["use"] and term[language]["uses"], (term["name"], language)
            re.compile(term[language]["uses"])


def test_the_glossary_page_shows_every_term():
    page = (FOLDER.parents[1] / "docs" / "GLOSSARY.md").read_text(encoding="utf-8")
    for term in GLOSSARY:
        row = f"| {term['name']} | {term['pt_BR']['use']} | {term['es']['use']} | {term['it']['use']} |"
        assert row in page, row
