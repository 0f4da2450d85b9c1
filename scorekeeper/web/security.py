"""What every request and response goes through: the Host check and the security headers.

- **Hosts.** Only the names the app is really served as are answered
  (Flask's ``TRUSTED_HOSTS``): localhost, 127.0.0.1, this machine's LAN
  addresses and host name, and any listed in ``EXTRA_HOSTS`` in
  ``instance/config.py``. A page elsewhere that points its own name at this
  machine (DNS rebinding) gets a plain 400 and nothing else.
- **Cookies.** The session cookie is ``Secure`` over https (``SessionOverEither``).
- **Headers.** Every response says: scripts, styles, images, fonts, forms
  and frames come from this origin only, never inline; no framing by
  anyone; no content-type sniffing; the referrer only to this origin, which
  keeps Flask-WTF's referer check working.
"""

import functools
import socket

from flask import g, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.exceptions import SecurityError
from werkzeug.wrappers import Response

from .network import lan_addresses

LOCAL_HOSTS = ("localhost", "127.0.0.1")

# One policy for every response, a page or not (a PDF, a download, an SVG).
# No object-src 'none': Chromium's PDF viewer is a plugin on the PDF's own page.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

HEADERS = {
    "X-Content-Type-Options": "nosniff",
    # same-origin posts still send the Referer that Flask-WTF checks over HTTPS;
    # a share link's token never leaves in one
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors, for browsers that predate it
    "Cross-Origin-Resource-Policy": "same-origin",
}

REFUSED_HOST = (
    "<!doctype html>\n<html lang=en><meta charset=utf-8><title>Unknown address</title>"
    "<h1>Unknown address</h1><p>Scorekeeper answers only at the addresses it is served "
    "as: open the address <code>make run</code> printed.</p></html>\n"
)


def served_as(lan_addresses, hostname, extra=()):
    """The host names the app answers to (ports aside), without repeats.

    :param lan_addresses: this machine's addresses on its networks (``network.lan_addresses()``)
    :param hostname: this machine's name; its ``.local`` name (mDNS) is added
    :param extra: more names from the instance config (``EXTRA_HOSTS``)
    """
    names = [*LOCAL_HOSTS, *lan_addresses]
    if hostname:
        names += [hostname, f"{hostname}.local"]
    names += extra
    return list(dict.fromkeys(name.lower() for name in names if name))


@functools.cache
def machine_names():
    """This machine's LAN addresses and name, read once per process (``hostname -I``)."""
    return tuple(lan_addresses()), socket.gethostname()


def _refuse_unknown_host():
    # Flask stored the Host check's failure as the routing exception; answer it
    # before any other hook runs (they would build URLs, which needs a trusted host).
    if isinstance(request.routing_exception, SecurityError):
        return Response(REFUSED_HOST, 400, content_type="text/html; charset=utf-8")
    return None


def _add_headers(response):
    also = g.get("connect_also")  # /trust asks the same address over https (views/trust.py)
    response.headers["Content-Security-Policy"] = (
        CSP.replace("connect-src 'self'", f"connect-src 'self' {also}") if also else CSP
    )
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


class SessionOverEither(SecureCookieSessionInterface):
    """The session cookie (a sign-in, the forms' CSRF tokens) over http and https alike.

    Over https it is ``Secure`` and named ``__Host-session`` (the browser then keeps it to
    this host, this path and https); over http it is the plain ``session`` a phone not
    paired uses. Two names, because a browser lets no http page set a cookie named as a
    ``Secure`` one: a phone that opened both would otherwise be signed out on http for good.
    """

    def get_cookie_name(self, app):
        return "__Host-session" if request.is_secure else super().get_cookie_name(app)

    def get_cookie_secure(self, app):
        return request.is_secure


def init_app(app):
    """Call first in ``create_app``: the Host check runs before every other hook,
    and the headers (registered first, so run last) go on every response."""
    app.session_interface = SessionOverEither()
    if app.config.get("TRUSTED_HOSTS") is None:
        app.config["TRUSTED_HOSTS"] = served_as(*machine_names(), app.config.get("EXTRA_HOSTS", ()))
    app.before_request(_refuse_unknown_host)
    app.after_request(_add_headers)
