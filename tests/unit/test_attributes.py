"""The fields' attributes as WTForms writes them: ``scorekeeper.forms.attributes``
writes the same text, faster, and is what WTForms uses once the app is made."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup
from wtforms import Form, RadioField, SelectChoice, SelectField, StringField, TextAreaField, widgets
from wtforms.widgets import core

from scorekeeper.forms import attributes
from scorekeeper.forms.attributes import WTFORMS_HTML_PARAMS, html_params
from tests.helpers import examples

pytestmark = pytest.mark.timeout(60)

KEYS = st.sampled_from(
    [
        "class_",
        "for_",
        "id",
        "name",
        "value",
        "data_x_y",
        "aria_label",
        "data_",
        "a<b",
        'q"',
        "x&y",
        "hx-on::click",
    ]
)
VALUES = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(),
    st.text().map(Markup),
    st.sampled_from(['"', "<b>&amp;</b>", Markup('a "b" &amp; <i>'), "'", "\u2028", "&#34;"]),
)


@settings(max_examples=examples(300))  # a millisecond each; keys and values are few kinds
@given(st.dictionaries(KEYS, VALUES, max_size=6))
def test_the_same_text_as_wtforms(kwargs):
    ours, theirs = html_params(**kwargs), WTFORMS_HTML_PARAMS(**kwargs)
    assert ours == theirs
    assert isinstance(ours, Markup)


class Every(Form):
    text = StringField("Name <b>", render_kw={"placeholder": 'say "hi"', "data_role": "x"})
    area = TextAreaField("Notes", default="a & b")
    pick = SelectField(
        "Pick", choices=[SelectChoice("1", "One & <two>"), SelectChoice("2", 'Two "2"')], default="2"
    )
    radio = RadioField("Radio", choices=[SelectChoice("a", "A"), SelectChoice("b", "B")], default="a")


def _rendered():
    form = Every()
    return [str(f()) + str(f.label()) for f in form]


def test_installed_everywhere_wtforms_looks_and_renders_the_same(monkeypatch):
    monkeypatch.setattr(core, "html_params", WTFORMS_HTML_PARAMS)
    monkeypatch.setattr(widgets, "html_params", WTFORMS_HTML_PARAMS)
    kept = {w: w.html_params for w in vars(core).values() if isinstance(w, type) and "html_params" in vars(w)}
    for widget in kept:
        monkeypatch.setattr(widget, "html_params", staticmethod(WTFORMS_HTML_PARAMS))
    before = _rendered()
    attributes.install()
    assert core.html_params is html_params and widgets.html_params is html_params
    assert all(w.html_params is html_params for w in kept)
    assert _rendered() == before
