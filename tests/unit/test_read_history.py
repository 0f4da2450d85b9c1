"""An export read a value at a time (``exchange.reading.read_history``) reads exactly as
``json.loads`` does, and refuses what it refuses."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
