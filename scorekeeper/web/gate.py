"""The gate between hypercorn and the app (``web/server.py``): a request's body bounded by
what its page takes (``web/bodies.py``) before a byte of it is read, kept past
``SPOOLED_IN_MEMORY`` in a file on a disk (never a RAM-backed /tmp), and the app's answer
gathered in its thread, then sent from the server's loop: a phone that reads slowly holds
no thread. Hypercorn's own WSGI wrapper, whose parts it builds on, read any body whole
into memory and sent each part of an answer from the app's thread, waiting on the phone.
"""

import asyncio
import email.utils
import functools
import io
import os
import tempfile

from hypercorn.app_wrappers import WSGIWrapper, _build_environ

from . import bodies

#: a body is kept in memory up to this, past it in a file (``upload_folder``)
SPOOLED_IN_MEMORY = 256 * 1024
#: an answer is gathered whole in the app's thread up to this; past it (an export of a
#: long history) it is sent as it is written, the thread waiting on the phone
GATHERED_ANSWER = 8 * 1024 * 1024


def _on_ram(path, mounts=None):
    """Whether ``path`` lies on a file system kept in memory (tmpfs, ramfs), by the
    longest mount point above it in ``mounts`` (/proc/self/mountinfo's text; where it
    cannot be read, False)."""
    if mounts is None:
        try:
            with open("/proc/self/mountinfo", encoding="utf-8") as file:
                mounts = file.read()
        except OSError:
            return False
    real, best, kind = os.path.realpath(path), "", ""
    for line in mounts.splitlines():
        before, _, after = line.partition(" - ")
        point = before.split()[4].replace("\\040", " ")
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best):
            best, kind = point, after.split()[0]
    return kind in ("tmpfs", "ramfs")


def upload_folder(chosen=None, system=None, mounts=None):
    """Where bodies past ``SPOOLED_IN_MEMORY`` wait: ``chosen`` (``UPLOAD_TMP``), else the
    system's temporary folder unless it is kept in memory (Debian's /tmp can be: four
    unfinished 64 MB uploads were 258 MB of RAM), else /var/tmp, which the system keeps on a
    disk (``mounts``: /proc/self/mountinfo's text, read if not given)."""
    if chosen:
        return chosen
    system = system or tempfile.gettempdir()
    return "/var/tmp" if _on_ram(system, mounts) else system


class Gate(WSGIWrapper):
    """Hypercorn's WSGI wrapper, with the body bounded and spooled, the answer gathered."""

    def __init__(self, app, folder):
        super().__init__(app, max_body_size=0)  # the limit is the route's: ``bodies.Limits``
        self.limits = bodies.Limits(app)
        self.folder = folder
        self.draining = set()  # the rest of refused bodies, read and dropped (``_discard``)

    async def handle_http(self, scope, receive, send, sync_spawn, call_soon):
        largest = self.limits.of(scope["method"], scope["path"])
        announced = _announced(scope)
        with tempfile.SpooledTemporaryFile(SPOOLED_IN_MEMORY, dir=self.folder) as body:
            if announced is not None and announced > largest:
                size = announced  # refused unread: the app says 413 in the reader's language
            else:
                size = await _read_body(receive, body, largest)
                if size is None:
                    return  # the phone went away
            environ = _build_environ(scope, b"")
            environ.pop("HTTP_TRANSFER_ENCODING", None)  # the body is whole: its length says it
            environ["CONTENT_LENGTH"] = str(size)
            environ["SERVER_PORT"] = str(environ["SERVER_PORT"])
            environ["wsgi.multiprocess"] = False
            refused = size > largest
            if refused:
                environ["wsgi.input"] = io.BytesIO()
                # what more the phone sends is read and dropped: hypercorn hands a body over a few
                # parts at a time and would otherwise wait for room for ever, the connection with it
                draining = asyncio.ensure_future(_discard(receive))
                self.draining.add(draining)
                draining.add_done_callback(self.draining.discard)
            else:
                body.seek(0)
                environ["wsgi.input"] = body
            gathered = await sync_spawn(self.run_app, environ, functools.partial(call_soon, send))
        if refused and gathered:  # the phone should stop sending: nothing more is read
            gathered[0]["headers"].append((b"connection", b"close"))
        for message in gathered:
            await send(message)
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    def run_app(self, environ, send):
        """The app's answer, in the app's thread: the messages to send, gathered whole
        (an answer past ``GATHERED_ANSWER`` is sent as it comes, through ``send``)."""
        head, parts, size, streaming = {}, [], 0, False

        def start_response(status, headers, exc_info=None):
            head["status"] = int(status.split(" ", 1)[0])
            head["headers"] = [(n.lower().encode("latin-1"), v.encode("latin-1")) for n, v in headers]
            if not any(name == b"date" for name, _ in head["headers"]):  # a file's has its own
                head["headers"].append((b"date", email.utils.formatdate(usegmt=True).encode()))

        answer = self.app(environ, start_response)
        try:
            for part in answer:
                if not part:
                    continue
                if streaming:
                    send({"type": "http.response.body", "body": part, "more_body": True})
                    continue
                parts.append(part)
                size += len(part)
                if size > GATHERED_ANSWER:
                    streaming = True
                    send({"type": "http.response.start", **head})
                    send({"type": "http.response.body", "body": b"".join(parts), "more_body": True})
                    parts = []
        finally:
            if hasattr(answer, "close"):
                answer.close()
        if streaming:
            return []
        if not head:
            raise RuntimeError("the app did not call start_response")
        start = {"type": "http.response.start", **head}
        return [start, {"type": "http.response.body", "body": b"".join(parts), "more_body": True}]


def _announced(scope):
    """The Content-Length a request announced, or None (h11 has checked it is a number)."""
    for name, value in scope["headers"]:
        if name == b"content-length":
            return int(value)
    return None


async def _discard(receive):
    """Read a refused body's rest, and drop it, until the request is over."""
    while (await receive())["type"] != "http.disconnect":
        pass


async def _read_body(receive, body, largest):
    """The body into ``body``, up to ``largest`` (past it the reading stops): its size, or
    None if the phone disconnected."""
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > largest:
            return size
        body.write(chunk)
        if not message.get("more_body"):
            return size
