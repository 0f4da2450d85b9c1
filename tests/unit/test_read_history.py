"""An export read a value at a time (``exchange.reading.read_history``) reads exactly as
``json.loads`` does, and refuses what it refuses; and no value longer, nor list longer,
than its limit (exchange/limits.py), wherever it is in the file."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.exchange.limits import MAX_GAME_TEXT, MAX_GAMES, MAX_HOUSE_RULES, MAX_PLAYERS, MAX_VALUE_TEXT
from scorekeeper.exchange.reading import read_history

from ..helpers import examples

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)
documents = st.dictionaries(st.sampled_from(["format", "games", "players", "x"]), values | st.lists(values))


# a hundred documents: every layout, encoding and member order comes up many times over
@settings(max_examples=examples(100))
@given(documents, st.sampled_from([None, 0, 2]), st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-32"]))
def test_a_document_reads_as_json_loads_reads_it(document, indent, encoding):
    text = json.dumps(document, indent=indent)
    assert read_history(text.encode(encoding)) == json.loads(text.encode(encoding))
    assert read_history(text) == json.loads(text)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1,}',
        '{"games": [1,]}',
        '{"a": 1} x',
        '{"games": [1 2]}',
        "{a: 1}",
        "",
        "{",
        '{"games": [',
        "\ufeff{}",
    ],
)
def test_what_json_loads_refuses_is_refused(text):
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)
    with pytest.raises(ValueError, match=r"^not a JSON file"):
        read_history(text)


# --- a file longer than the reader's window (issue 53) ----------------------------------------


def long_history(games, seed=53):
    """An export-like text of ``games`` games of varied length and content: many times the
    reader's window, so that values start and end anywhere in it."""
    rnd = random.Random(seed)
    texts = ["Ann", 'Bo "quoted"', "Zoë \\ back", "tab\there", "\u2028line", "日本", "\U0001f0cf", ""]
    kinds = [
        {
            "note": rnd.choice(texts) * rnd.randrange(6000),
            "rounds": [
                {
                    "number": r,
                    "entries": [{"melded_points": rnd.randrange(5000)}, {"cuts": [1.5, None, True]}],
                }
                for r in range(rnd.randrange(1, 40))
            ],
        }
        for _ in range(40)
    ]
    return {
        "format": "scorekeeper-history",
        "players": [rnd.choice(texts) + str(n) for n in range(50)],
        "games": [{"uid": f"g{n}", **rnd.choice(kinds)} for n in range(games)],
    }


def test_a_file_many_windows_long_reads_as_json_loads_reads_it():
    text = json.dumps(long_history(500), ensure_ascii=False)
    assert len(text) > 2.5 * MAX_GAME_TEXT  # the window is 1.25 times it: moved on several times
    assert read_history(text.encode()) == json.loads(text)


def test_an_error_far_into_a_long_file_is_where_json_loads_says():
    text = json.dumps(long_history(400))
    at = text.index('"uid": "g350"')
    broken = text[:at] + text[at + 1 :]  # a name without its opening quote
    with pytest.raises(json.JSONDecodeError) as expected:
        json.loads(broken)
    with pytest.raises(ValueError) as refused:
        read_history(broken)
    assert str(refused.value) == f"not a JSON file ({expected.value})"


@pytest.mark.parametrize(
    ("key", "most"), [("players", MAX_PLAYERS), ("house_rules", MAX_HOUSE_RULES), ("games", MAX_GAMES)]
)
def test_a_list_is_read_no_further_than_its_limit(key, most):
    text = '{"format": "scorekeeper-history",\n"' + key + '": [' + ",".join(["0"] * (most + 1)) + "]}"
    with pytest.raises(
        ValueError, match=rf"^{key}\[{most}\] \(line 2\): a history (holds|lists) at most {most:,} "
    ):
        read_history(text)
    assert len(read_history(text.replace(",0]", "]"))[key]) == most


@pytest.mark.parametrize("games", [0, 5])
def test_a_value_longer_than_its_limit_is_refused_where_it_starts(games):
    # at the end of a short file, and deep in a long one (five games of 2 MB before it: the
    # window the decoder is given ends before the value does)
    before = ",".join(['"' + "g" * (MAX_GAME_TEXT - 500_000) + '"'] * games)
    text = '{"games": [' + before + '],\n"format": "' + "a" * (MAX_VALUE_TEXT + 1) + '", "version": 4}'
    assert (len(text) > 2 * MAX_GAME_TEXT) == bool(games)
    with pytest.raises(ValueError) as refused:
        read_history(text)
    said = "more than 100,000 characters: nothing in a Scorekeeper export is so long"
    assert str(refused.value) == f"format (line 2): {said}"
    at_most = text.replace("a" * (MAX_VALUE_TEXT + 1), "a" * (MAX_VALUE_TEXT - 2))  # 100,000 with its quotes
    assert read_history(at_most)["format"] == "a" * (MAX_VALUE_TEXT - 2)
