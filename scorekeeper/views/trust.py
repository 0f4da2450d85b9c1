"""Making a phone secure: ``/trust``, the one page a family needs for https at home.

Over http every page offers it once, quietly (``trust_offer``). The page tells an iPhone
or iPad, an Android phone and a computer apart, gives each the household root in the form
it installs (a configuration profile; a DER certificate) with the steps in the words of
its Settings, shows the fingerprint ``make run`` printed, and checks from the phone itself
whether https answers (``/trust/check``), turning into "Open the secure app" as soon as it
does. Everything here opens without the passcode: the root is no secret, and a phone
that is not paired must be able to pair.

With "every phone here is paired" on (a household setting, ``PAIRED_FILE``), http
answers ``/trust`` alone and sends everything else to the same address over https.
"""

import os
from urllib.parse import urlsplit, urlunsplit

from flask import Blueprint, Response, current_app, flash, g, redirect, render_template, request, url_for

from ..forms.auth import EveryPhonePairedForm
from ..scoring.language import _
from ..storage.private import write_whole
from ..web import certificates
from .auth import _local_path, household_required

bp = Blueprint("trust", __name__)

#: a phone that saw the offer (or said "Not now") is not offered it again
OFFERED_COOKIE = "trust_offered"
#: the household's "every phone here is paired" setting: present means on
PAIRED_FILE = "every-phone-paired"
#: what http still answers with every phone paired: this page, its downloads, its styles
OVER_HTTP = frozenset(
    {"trust.index", "trust.certificate", "trust.profile", "trust.check", "trust.later", "static"}
)
YEAR = 365 * 24 * 3600


def _status():
    return certificates.load(current_app.instance_path)


def https_port():
    """The port https is served on by this process, or None (``serve.py`` sets it)."""
    return current_app.config.get("HTTPS_PORT")


def _host():
    """The host this phone asked for, without its port."""
    return urlsplit(f"//{request.host}").hostname


def secure_url(status, path="/"):
    """``path`` over https at the address this phone used, when the certificate names it
    (not localhost, nor a bare host name), else at the first the certificate names; None
    without https or a certificate."""
    port = https_port()
    if not port or status is None:
        return None
    named = status.covered.hosts
    host = _host() if _host() in named else (status.covered.addresses or named)[0]
    return f"https://{host}:{port}{path}"


def every_phone_paired():
    return os.path.exists(os.path.join(certificates.folder_of(current_app.instance_path), PAIRED_FILE))


def device():
    """ "iphone", "android" or "computer", from the browser's own description (an iPad
    that says it is a Mac finds its steps under "Another kind of phone or computer")."""
    agent = request.user_agent.string
    if any(word in agent for word in ("iPhone", "iPad", "iPod")):
        return "iphone"
    if "Android" in agent:
        return "android"
    return "computer"


def _remember_offered(response):
    response.set_cookie(OFFERED_COOKIE, "1", max_age=YEAR, httponly=True, samesite="Lax")
    return response


@bp.get("/trust")
def index():
    """The steps to trust the household root on this phone, and the check that it did."""
    status = _status()
    # the live check asks https from this http page (static/app.js); None without https
    g.connect_also = secure_url(status, "")
    page = render_template(
        "trust/index.html",
        status=status,
        device=device(),
        secure=request.is_secure,
        secure_url=secure_url(status),
        check_url=secure_url(status, url_for("trust.check")),
        hostname=_hostname(status),
    )
    return _remember_offered(Response(page))


def _hostname(status):
    if status is None:
        return ""
    names = status.covered.names
    return names[0].removesuffix(".local") if names else (status.covered.addresses or ("",))[0]


def _file(data, mimetype, name):
    status = _status()
    if status is None:
        return render_template("trust/none.html"), 404
    return Response(
        data(status),
        mimetype=mimetype,
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-cache"},
    )


@bp.get("/trust/scorekeeper-household.crt")
def certificate():
    """The household root as DER: what Android and computers install."""
    return _file(certificates.root_der, "application/x-x509-ca-cert", "scorekeeper-household.crt")


@bp.get("/trust/scorekeeper-household.mobileconfig")
def profile():
    """The household root as a configuration profile: what an iPhone or iPad installs."""
    return _file(
        lambda status: certificates.mobileconfig(status, _hostname(status)),
        "application/x-apple-aspen-config",
        "scorekeeper-household.mobileconfig",
    )


@bp.get("/trust/check")
def check():
    """Answered (204) at once: the http page asks it over https, and an answer means this
    phone trusts the household root."""
    # read from the http page, another origin: its empty answer may cross (security.HEADERS)
    return Response(
        status=204, headers={"Cache-Control": "no-store", "Cross-Origin-Resource-Policy": "cross-origin"}
    )


@bp.get("/trust/later")
def later():
    """ "Not now": the offer is not shown again on this phone; back to the page it was on."""
    return _remember_offered(redirect(_local_path(request.args.get("next")) or url_for("home.index"), 303))


@bp.post("/settings/https")
@household_required
def every_phone():
    """Turn "every phone here is paired" on or off (the settings page)."""
    form = EveryPhonePairedForm()
    if form.validate_on_submit():
        path = os.path.join(certificates.folder_of(current_app.instance_path), PAIRED_FILE)
        if form.paired.data == "yes":
            write_whole(path, "http answers /trust alone; everything else is sent to https\n")
            flash(_("Every phone here is paired: over http only the page to pair a phone opens."), "success")
        elif os.path.exists(path):
            os.remove(path)
            flash(_("http opens the whole app again, for phones not paired."), "success")
    return redirect(url_for("auth.settings") + "#https-title", 303)


def _send_to_https():
    """With every phone paired, an http request for anything but ``/trust`` goes to https,
    at the same address: an address the certificate does not name (the computer's own
    localhost) stays on http, where the browser trusts it anyway."""
    if request.is_secure or not https_port() or request.endpoint in OVER_HTTP:
        return None
    if not every_phone_paired():
        return None
    status, host = _status(), _host()
    if status is None or host not in status.covered.hosts:
        return None
    # the address as sent, still quoted (a decoded path could hold a newline or a '#')
    target = urlsplit(request.url)._replace(scheme="https", netloc=f"{host}:{https_port()}")
    # a form sent over http is sent again to https as it was (307); a page is just opened there
    return redirect(urlunsplit(target), 302 if request.method in ("GET", "HEAD") else 307)


def trust_offer():
    """Whether this page offers to make the phone secure: over http, with https served,
    to a phone that has not seen the offer."""
    return bool(
        not request.is_secure
        and https_port()
        and request.blueprint != "trust"
        and not request.cookies.get(OFFERED_COOKIE)
    )


def init_app(app):
    """Call right after ``security.init_app``: an http request is sent to https (when every
    phone is paired) before anything else reads it."""
    app.before_request(_send_to_https)
    app.context_processor(lambda: {"trust_offer": trust_offer})
