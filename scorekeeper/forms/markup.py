"""How every page writes a form field: its label, its input, its hint and its errors,
linked with ``aria-describedby`` so that a screen reader reads them.

These were Jinja macros in templates/_forms.html; they are the same HTML written by
Python, because a Jinja macro call cost more than the field it wrote. The house-rules
editor writes about 90 fields a page and the New game page 130: /rules/new took 21.7 ms
with the macros and 17.5 ms with these, /games/new 33.3 and 29.1 ms, the round form
11.8 and 10.2 ms (in-process, the medians of 20 requests, the two versions taking
turns). The templates call these as globals with the macros' arguments
(``field(f, class="x", label="…", placeholder="0")``); the two macros written once a
page (``error_summary``, ``form_errors``) stay in templates/_forms.html.
"""

from flask import request
from markupsafe import Markup, escape

from ..scoring.language import _

NUMBER_FIELDS = ("IntegerField", "WholeNumberField")  # the phone's numeric keypad


def describedby(f):
    """The ids of the field's hint and error, as ``aria-describedby`` lists them."""
    ids = []
    if f.description:
        ids.append(f"{f.id}-hint")
    if f.errors:
        ids.append(f"{f.id}-error")
    return " ".join(ids)


def _errors(f):
    return Markup(" ").join(e if hasattr(e, "__html__") else str(e) for e in f.errors)


def messages(f):
    """The field's hint and its errors, each with the id ``describedby`` names."""
    text = ""
    if f.description:
        text += f'<p class="hint" id="{escape(f.id)}-hint">{escape(f.description)}</p>'
    if f.errors:
        text += f'<p class="error" id="{escape(f.id)}-error">{_errors(f)}</p>'
    return Markup(text)


def _refused(f):
    """A group's marks when the field was refused: its class, and its attribute naming
    the error ("" and "" when it was not)."""
    if not f.errors:
        return "", ""
    return " has-error", f' aria-describedby="{escape(f.id)}-error"'


def _label(f, label):
    return f.label(text=label) if label else f.label()


def _input(f, **kwargs):
    return f(aria_describedby=describedby(f) or False, aria_invalid="true" if f.errors else False, **kwargs)


def field(f, label=None, **kwargs):
    """Any field; numbers get the phone's numeric keypad. A number that may be negative
    is typed on the full keyboard (a numeric keypad has no minus) until static/app.js
    gives it the keypad and a ± key. ``class`` is the wrapper's; other keyword
    arguments become the input's attributes (``placeholder="0"``)."""
    css = kwargs.pop("class", "")
    extra = {"inputmode": "numeric", "autocomplete": "off"} if f.type in NUMBER_FIELDS else {}
    input = _input(f, **dict(extra, **kwargs))
    if f.type == "SignedNumberField":
        said = escape(_("Plus or minus: %(name)s", name=label or f.label.text))
        input = Markup(
            f'<div class="signed-row">{input}<button type="button" class="step sign" data-sign hidden'
            f' aria-label="{said}">±</button></div>'
        )
    error = " has-error" if f.errors else ""
    return Markup(
        f'\n<div class="field {escape(css)}{error}">\n  {_label(f, label)}\n  {input}\n'
        f"  {messages(f)}\n</div>"
    )


def choice_list(f, **kwargs):
    """One choice of a few, each shown whole on as many lines as it takes (a select cuts
    a long name short on a phone): a radio button a choice, under the field's legend."""
    css = escape(kwargs.get("class", ""))
    error, described = _refused(f)
    options = "".join(
        f'\n  <label class="choice">{option()} <span>{escape(option.label.text)}</span></label>'
        for option in f
    )
    return Markup(
        f'\n<fieldset class="field choice-list {css}{error}" id="{escape(f.id)}"{described}>\n'
        f"  <legend>{escape(f.label.text)}</legend>{options}\n  {messages(f)}\n</fieldset>"
    )


def stepper(f, label=None, anchor=None, **kwargs):
    """A whole number with − and + buttons. Without JavaScript the buttons submit the
    form with name="step" and the server adds or takes one (nothing is saved);
    static/app.js does it in place."""
    name = label or f.label.text
    fewer, more = escape(_("One fewer: %(name)s", name=name)), escape(_("One more: %(name)s", name=name))
    action = f' formaction="{escape(request.path)}#{escape(anchor)}"' if anchor else ""
    value = escape(f.name)
    input = _input(f, inputmode="numeric", autocomplete="off", **kwargs)
    error = " has-error" if f.errors else ""
    return Markup(
        f'\n<div class="field stepper{error}">\n  {_label(f, label)}\n  <div class="stepper-row">\n'
        f'    <button type="submit" name="step" value="{value}:-1" class="step"'
        f' aria-label="{fewer}" formnovalidate{action} data-step="-1">−</button>\n    {input}\n'
        f'    <button type="submit" name="step" value="{value}:1" class="step"'
        f' aria-label="{more}" formnovalidate{action} data-step="1">+</button>\n'
        f"  </div>\n  {messages(f)}\n</div>\n"
    )


def book_chips(f):
    """A count of books: a chip per count from 0 to 9 (one tap; radio buttons, so it
    works without JavaScript), and a box for a larger count, all under the field's one
    name (forms.rounds.BookCountField: the box wins when it holds anything).
    static/app.js moves on to the next field after a chip."""
    id, name, label = escape(f.id), escape(f.name), escape(f.label.text)
    another = escape(_("%(name)s: another number", name=f.label.text))
    chosen = f.chip()
    chips = "".join(
        f'\n    <label class="chip"><input type="radio" name="{name}" id="{id}-{n}" value="{n}"'
        f"{' checked' if chosen == n else ''}><span>{n}</span></label>"
        for n in range(10)
    )
    error, described = _refused(f)
    invalid = ' aria-invalid="true"' + described if f.errors else ""
    return Markup(
        f'\n<fieldset class="field chips{error}" id="{id}-group"{described}>\n  <legend>{label}</legend>\n'
        f'  <div class="chip-row">{chips}\n    <input type="text" class="chip-more" name="{name}" id="{id}"'
        f' value="{escape(f.typed())}" inputmode="numeric" maxlength="{f.flags.maxlength}"'
        f' autocomplete="off" placeholder="10+"'
        f' aria-label="{another}"'
        f"{invalid}>\n  </div>\n  {messages(f)}\n</fieldset>\n"
    )


def init_app(app):
    app.jinja_env.globals.update(
        field=field, choice_list=choice_list, stepper=stepper, book_chips=book_chips, messages=messages
    )
