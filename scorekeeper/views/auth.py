"""The household passcode: signing in, signing out, and the settings page that sets it
(and says where the automatic backups go).

With no passcode set (the default) nothing here stands in anyone's way. With
one set, ``require_sign_in`` sends every request but the ``PUBLIC`` ones to
the sign-in page until the phone signs in; a sign-in lasts
``PERMANENT_SESSION_LIFETIME`` (an evening) and ends when the passcode
changes. Wrong guesses are slowed twice over: per address in bursts (Flask-Limiter,
in memory, past ``PASSCODE_GUESSES``), and for the whole household and per address in
the database, each guess past a few waiting longer (``services.guesses``: kept across
restarts, a guest's hundred addresses no better than one phone).

With no passcode set, what a guest on the Wi-Fi must not do unasked (set the first
passcode, import, download the whole history, a game in its importable format, or the
database) needs the household code that the computer shows (`make run` in its terminal,
``flask … household``): ``household_required``. It proves the phone is held by someone at
home; the phone keeps a proof that reveals nothing of the code (``passcode.household_proof``)
for ``HOUSEHOLD_PROOF_LIFETIME``. With a passcode set, a signed-in phone has proved as much.
"""

import datetime
import functools
import hmac
import math
import time
from urllib.parse import urlsplit

from flask import Blueprint, current_app, flash, g, redirect, render_template, request, session, url_for
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

from ..exchange import autobackup
from ..forms.auth import EveryPhonePairedForm, HouseholdForm, PasscodeForm, SignInForm, SignOutForm
from ..forms.language import HouseholdLanguageForm
from ..scoring.language import _, ngettext
from ..services import guesses as household_guesses
from ..storage import faults
from ..storage.db import get_db
from ..web import language, passcode

bp = Blueprint("auth", __name__)

# Open without signing in: the sign-in page; what it and an installed app's
# shell need (static files, of which none is private; the manifest, the
# service worker and the offline page); and share links.
PUBLIC = frozenset(
    {
        "auth.sign_in",
        "static",
        "webapp.manifest",
        "webapp.service_worker",
        "webapp.offline",
        "share.follow",
        "share.picture",  # a shared game's picture: what a chat's link preview fetches
        "evenings.follow",
        "evenings.follow_table",
        "evenings.follow_picture",  # a shared evening's picture, for a chat's link preview
        "language.choose",  # a phone's own language: its session alone, before it signs in too
        # making a phone secure (views/trust.py): the household root is no secret, and a
        # phone must pair before it signs in over https
        "trust.index",
        "trust.certificate",
        "trust.profile",
        "trust.check",
        "trust.later",
    }
)

# A refused form is shown again with this status (as on the other forms).
REFUSED = 422
# The sign-in page while the passcode file cannot be read: the app cannot serve anyone
# until it is set again at the computer, said on the page (as a storage fault's page is)
LOCKED = 503

# How long a phone's proof of the household code lasts, from when the code was typed; not
# renewed by use. The proof rides in a cookie that crosses the Wi-Fi over http: renewed, a
# copy taken off the air would open the history for as long as its taker kept using it.
# What needs the household is rare (a first passcode, an import, a download of the history
# or a backup), so six digits typed again once a month cost the family little.
HOUSEHOLD_PROOF_LIFETIME = datetime.timedelta(days=30)
PROOF_DAYS = HOUSEHOLD_PROOF_LIFETIME.days  # as the household code's page says it

# One limiter per process, like CSRFProtect; create_app gives it each app
# (a new app starts its counts afresh). The server answers the phones directly
# (no proxy in front), so the remote address is the phone's.
limiter = Limiter(get_remote_address, storage_uri="memory://")


def _wrong_guess(response):
    return g.get("wrong_passcode", False)


# Only a passcode that missed counts; the sign-in page and the settings page share the count.
guesses = limiter.shared_limit(
    lambda: current_app.config["PASSCODE_GUESSES"],
    scope="passcode",
    methods=["POST"],
    deduct_when=_wrong_guess,
)


def _instance():
    return current_app.instance_path


def signed_in(stored):
    """Whether this phone signed in with the passcode now set, within the sign-in's lifetime."""
    if stored == passcode.UNREADABLE:  # no one is signed in while the passcode cannot be read
        return False
    mark = session.get("signed_in")
    if not isinstance(mark, dict) or mark.get("passcode") != passcode.fingerprint(stored):
        return False
    age = time.time() - mark.get("at", 0)
    return 0 <= age < current_app.permanent_session_lifetime.total_seconds()


def _sign_in(stored):
    session.clear()  # a fresh session (and CSRF token) for the signed-in phone
    session.permanent = True
    session["signed_in"] = {"passcode": passcode.fingerprint(stored), "at": int(time.time())}


def require_sign_in():
    """With a passcode set, send a phone that has not signed in to the sign-in page. A
    passcode file that cannot be read locks the app the same way, with no one signed in:
    the sign-in page then says how to set the passcode again at the computer."""
    stored = passcode.stored_hash(_instance())
    g.passcode_set = stored is not None
    if stored is None or request.endpoint in PUBLIC or signed_in(stored):
        return None
    target = request.full_path.rstrip("?") if request.method == "GET" else None
    return redirect(url_for("auth.sign_in", next=target), 303)


def _local_path(value):
    """``value`` if it is a path of this app (never another site's address), else None."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return None
    parts = urlsplit(value)
    if parts.scheme or parts.netloc or any(ord(c) < 32 for c in value):
        return None
    return value


def _must_wait(form, field):
    """Seconds this guess must wait (the household's count and this address's), else 0
    with the guess counted. A guess is what ``form`` itself read into ``field``, the value it
    will check, from whichever body the phone sent (a form, multipart, or JSON, which
    Flask-WTF reads too), so that no shape of body goes uncounted; a form sent with nothing
    in ``field`` is refused without a guess. A database that cannot be written (a full disk,
    a read-only file) counts nothing: the per-address limit in memory still slows guesses,
    and the family can still sign in to read its scores."""
    if not form.is_submitted() or not field.data:
        return 0
    try:
        return household_guesses.admit(get_db(), request.remote_addr)
    except faults.Fault as fault:
        current_app.logger.warning("passcode guesses not counted: %s", fault)
        return 0


def _waiting(wait):
    """What a phone that must wait is told, beside the field."""
    return _(
        "Too many wrong guesses on this Wi-Fi: wait %(wait)s, then try again. "
        "(The count is for the whole household, so that a guest cannot try from many addresses.)",
        wait=household_guesses.spoken(wait),
    )


def _told_to_wait(template, form, field, wait, target, **page):
    """The page again with how long to wait next to ``field`` (429, ``Retry-After``)."""
    field.errors = [_waiting(wait)]
    form.next.data = target
    return render_template(template, form=form, **page), 429, {"Retry-After": str(math.ceil(wait))}


def _right_guess():
    try:
        household_guesses.right(get_db(), request.remote_addr)
    except faults.Fault as fault:  # as in _must_wait
        current_app.logger.warning("passcode guesses not cleared: %s", fault)


@bp.route("/sign-in", methods=["GET", "POST"])
@guesses
def sign_in():
    """Sign this phone in with the household passcode."""
    stored = passcode.stored_hash(_instance())
    if stored == passcode.UNREADABLE:
        # nothing typed here can open it: no form, no guess counted, the way out said
        current_app.logger.warning("%s", passcode.locked_because(_instance()))
        return render_template("auth/locked.html", command=passcode.COMMAND), LOCKED
    target = _local_path(request.values.get("next"))
    if stored is None or (request.method == "GET" and signed_in(stored)):
        return redirect(target or url_for("home.index"), 303)
    form = SignInForm(stored=stored)
    wait = _must_wait(form, form.passcode)
    if wait:
        return _told_to_wait("auth/sign_in.html", form, form.passcode, wait, target)
    if form.validate_on_submit():
        _right_guess()
        _sign_in(stored)
        return redirect(target or url_for("home.index"), 303)
    g.wrong_passcode = form.wrong_passcode
    form.next.data = target
    return render_template("auth/sign_in.html", form=form), REFUSED if form.is_submitted() else 200


def household_proven():
    """Whether this phone may do what needs the household: a passcode is set (and the
    phone signed in with it, ``require_sign_in``), or it gave the household code now kept,
    within ``HOUSEHOLD_PROOF_LIFETIME``."""
    stored = passcode.stored_hash(_instance())
    if stored is not None:
        return stored != passcode.UNREADABLE  # an unreadable passcode file proves nothing
    mark = session.get("household")
    if not isinstance(mark, dict) or not isinstance(mark.get("proof"), str):
        return False  # none, or the readable fingerprint kept before issue 53: asked again
    proof = passcode.household_proof(_instance(), current_app.secret_key)
    age = time.time() - mark.get("at", 0)
    return hmac.compare_digest(mark["proof"], proof) and 0 <= age < HOUSEHOLD_PROOF_LIFETIME.total_seconds()


def household_required(view):
    """A view that needs the household (see the module): without it, the household code
    is asked first, and the phone comes back here."""

    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        return view(*args, **kwargs) if household_proven() else _ask_household()

    return wrapped


def _ask_household():
    """To the household code's page, and back here after it (a form sent is not kept:
    the phone sends it again)."""
    back = request.full_path.rstrip("?") if request.method == "GET" else request.path
    if request.method != "GET":
        flash(_("First the household code: nothing was done. Then try again."), "error")
    return redirect(url_for("auth.household", next=back), 303)


@bp.route("/household", methods=["GET", "POST"])
@guesses
def household():
    """Prove this phone is held at home: the household code the computer shows."""
    target = _local_path(request.values.get("next")) or url_for("home.index")
    if household_proven():
        return redirect(target, 303)
    form = HouseholdForm()
    wait = _must_wait(form, form.code)
    if wait:
        return _told_to_wait("auth/household.html", form, form.code, wait, target, days=PROOF_DAYS)
    if form.validate_on_submit():
        if passcode.household_matches(_instance(), form.code.data):
            _right_guess()
            proof = passcode.household_proof(_instance(), current_app.secret_key)
            session["household"] = {"proof": proof, "at": int(time.time())}
            return redirect(target, 303)
        form.code.errors.append(_("That is not the household code. Look at the computer again."))
        g.wrong_passcode = True
    form.next.data = target
    page = render_template("auth/household.html", form=form, days=PROOF_DAYS)
    return page, REFUSED if form.is_submitted() else 200


@bp.post("/sign-out")
def sign_out():
    """Sign this phone out."""
    if SignOutForm().validate_on_submit():
        session.clear()
        flash(_("Signed out."), "info")
    return redirect(url_for("auth.sign_in"), 303)


@bp.route("/settings", methods=["GET", "POST"])
@guesses
def settings():
    """Set, change or remove the household passcode."""
    stored = passcode.stored_hash(_instance())
    if request.method == "POST" and stored is None and not household_proven():
        return _ask_household()  # the first passcode: a guest must not lock the family out
    removing = request.form.get("action") == "remove"
    form = PasscodeForm(stored=stored, removing=removing)
    wait = _must_wait(form, form.current) if stored is not None else 0
    if wait:
        form.current.errors = [_waiting(wait)]
        return _settings_page(form, stored), 429, {"Retry-After": str(math.ceil(wait))}
    if form.validate_on_submit():
        if stored is not None:
            _right_guess()
        if removing:
            if passcode.remove_passcode(_instance()):
                flash(_("Passcode removed: the app opens without signing in."), "success")
            session.pop("signed_in", None)
        else:
            passcode.set_passcode(_instance(), form.new.data)
            _sign_in(passcode.stored_hash(_instance()))  # this phone stays in; the others sign in again
            flash(_("Passcode saved. Other phones sign in with it from now on."), "success")
        return redirect(url_for("auth.settings"), 303)
    g.wrong_passcode = form.wrong_passcode
    return _settings_page(form, stored), REFUSED if form.is_submitted() else 200


def _settings_page(form, stored):
    hours = current_app.permanent_session_lifetime.total_seconds() / 3600
    backups = autobackup.for_app(current_app._get_current_object()).status()
    return render_template(
        "auth/settings.html",
        form=form,
        passcode_set=stored is not None,
        sign_out=SignOutForm(),
        hours=f"{hours:g}",
        backups=backups,
        disks=_disks(backups),
        automatic=current_app.config["BACKUPS_AUTOMATIC"],
        household=household_proven(),
        https=_https_settings(),
        language=HouseholdLanguageForm(
            formdata=None, languages=language.known(), language=language.household_language()
        ),
    )


def _https_settings():
    """The https section of the settings page: the port (None: not served) and the
    "every phone here is paired" form, filled as the setting is."""
    from . import trust  # trust's views are built on this module's

    return {
        "port": trust.https_port(),
        "secure": request.is_secure,
        "form": EveryPhonePairedForm(formdata=None, paired="yes" if trust.every_phone_paired() else "no"),
    }


def _disks(backups):
    """The disks of the scores and of the backups (one when they share it), with their free space."""
    auto = autobackup.for_app(current_app._get_current_object())
    listed = faults.disks(current_app.config["DATABASE"], backups["folder"], *auto.floor)
    return [disk for disk in listed if disk.space is not None]


@bp.app_errorhandler(RateLimitExceeded)
def too_many_guesses(error):
    """Too many wrong passcodes from this phone: say so next to the field, and for how long."""
    limit = limiter.current_limit
    wait = max(1, math.ceil(limit.reset_at - time.time())) if limit else 60
    minutes = math.ceil(wait / 60)
    if wait > 60:  # English says "minutes" and "seconds" whatever the number
        message = ngettext(
            "Too many wrong passcodes from this phone. Wait %(num)s minutes, then try again.",
            "Too many wrong passcodes from this phone. Wait %(num)s minutes, then try again.",
            minutes,
        )
    else:
        message = ngettext(
            "Too many wrong passcodes from this phone. Wait %(num)s seconds, then try again.",
            "Too many wrong passcodes from this phone. Wait %(num)s seconds, then try again.",
            wait,
        )
    headers = {"Retry-After": str(wait)}
    stored = passcode.stored_hash(_instance())
    if request.endpoint == "auth.settings":
        form = PasscodeForm(formdata=None, stored=stored)
        form.current.errors = [message]
        return _settings_page(form, stored), 429, headers
    form = SignInForm(formdata=None, stored=stored, next=_local_path(request.values.get("next")))
    form.passcode.errors = [message]
    return render_template("auth/sign_in.html", form=form), 429, headers


def init_app(app):
    """Call before ``csrf.init_app``: a phone that has not signed in is sent to the
    sign-in page before anything reads its form."""
    app.before_request(require_sign_in)
    limiter.init_app(app)
