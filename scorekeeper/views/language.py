"""Choosing a language: this phone's (the foot of every page) and the household's (settings)."""

from flask import Blueprint, abort, flash, redirect, request, session, url_for

from ..forms.language import HouseholdLanguageForm
from ..scoring.language import _
from ..web import language
from .auth import _local_path, household_required

bp = Blueprint("language", __name__)


@bp.get("/language/<code>")
def choose(code):
    """This phone's language, kept in its session ("household": the household's again);
    back to the page it was on. A link, not a form: one tap at the foot of any page, with or
    without JavaScript, and no second form on pages that have one (it writes only this
    phone's own cookie, as a sign-in page's would)."""
    back = _local_path(request.args.get("next")) or url_for("home.index")
    if code in language.known():
        session["language"] = code
    elif code == language.HOUSEHOLD:
        session.pop("language", None)
    else:
        abort(404, description=_("There is no such language here."))
    return redirect(back, 303)


@bp.post("/settings/language")
@household_required
def household():
    """The household's language (settings)."""
    form = HouseholdLanguageForm(languages=language.known())
    if form.validate_on_submit():
        language.set_household_language(form.language.data)
        language.rebind()  # the message below in the language just set
        flash(_("The household's language is saved."), "success")
    return redirect(url_for("auth.settings") + "#language-title", 303)
