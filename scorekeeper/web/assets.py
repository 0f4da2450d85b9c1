"""What a page costs on the Wi-Fi: compressed responses and static files fetched once.

- **Compression** (Flask-Compress): HTML, CSS, JavaScript, SVG and JSON go
  out as Brotli or gzip, whichever the browser takes (a round-entry page of
  15 KB is about 2 KB on the wire). PDFs are compressed already. CSS and
  JavaScript are sent minified (rcssmin, rjsmin), a fifth less to parse.
- **Versioned static URLs**: ``url_for('static', filename=...)`` adds
  ``?v=`` and the first 12 hex digits of the file's sha256, so a changed file
  has a new URL. A request with the current version is answered with
  ``Cache-Control: public, max-age=31536000, immutable``: the browser keeps
  it a year and never asks again. Any other request for a static file (no
  version, or an old one) is answered as before, with ``no-cache``.
"""

import functools
import hashlib
import os
from stat import S_ISREG

import rcssmin
import rjsmin
from flask import request
from flask_compress import Compress
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600
MIMETYPES = ["text/html", "text/css", "text/javascript", "application/javascript", "image/svg+xml"]


def _version(app, filename, versions):
    """The file's version, from its content: read again only when its size or time changes."""
    path = safe_join(app.static_folder, filename)
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    if not S_ISREG(stat.st_mode):  # the folder itself (a prefix), not a file
        return None
    key = (filename, stat.st_mtime_ns, stat.st_size)
    if key not in versions:
        with open(path, "rb") as file:
            versions[key] = hashlib.sha256(file.read()).hexdigest()[:12]
    return versions[key]


@functools.lru_cache(maxsize=32)
def _minified(filename, data):
    """CSS and JavaScript without their comments and spaces (the files keep theirs)."""
    if filename.endswith(".css"):
        return rcssmin.cssmin(data.decode()).encode()
    if filename.endswith(".js"):
        return rjsmin.jsmin(data.decode()).encode()
    return data


def init_app(app):
    app.config.setdefault("COMPRESS_MIMETYPES", MIMETYPES + ["application/json"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # first, as Flask runs after_request functions last-registered first: so
    # cache_static below makes a static file whole before it is compressed
    Compress(app)
    versions = {}

    @app.url_defaults
    def versioned_static(endpoint, values):
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = _version(app, values["filename"], versions)
            if version:
                values["v"] = version

    @app.after_request
    def cache_static(response):
        """Static files: kept a year when asked for by their current version; sent
        whole (not streamed) so that they are compressed like pages."""
        if request.endpoint != "static" or response.status_code != 200:
            return response
        filename = (request.view_args or {}).get("filename", "")
        if response.direct_passthrough:
            source = response.response  # the open file
            response.direct_passthrough = False
            data = response.get_data()
            if hasattr(source, "close"):
                source.close()
            response.set_data(_minified(filename, data))
        version = request.args.get("v")
        if version and version == _version(app, filename, versions):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        return response
