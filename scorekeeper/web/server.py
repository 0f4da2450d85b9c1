"""The server `make run` starts: the app over http and https, one process, one event loop.

Hypercorn (the ASGI and WSGI server by Quart's author) reads every connection, both
ports, on one asyncio loop: a TLS handshake, a request's headers and its body arrive
there, and only a whole request is handed to one of the app's ``REQUEST_THREADS``
threads. A guest on the Wi-Fi holding connections open (idle, trickling headers, a body a
byte at a time, or not reading an answer) holds no thread, only a socket, and one address
holds at most ``CONNECTIONS_PER_ADDRESS`` of those (docs/SECURITY.md, docs/HTTPS.md: why
this server, and the figures against waitress and cheroot).

Three things are ours around hypercorn's own parts:

- ``Doorway``, the listening socket: a connection past its address's share is closed as
  it is accepted;
- ``Gate``, hypercorn's WSGI wrapper with the body bounded by its route (``web/bodies.py``)
  before a byte is read, spooled past ``SPOOLED_IN_MEMORY`` to a folder on a disk (never
  a RAM-backed /tmp), and the answer gathered in the app's thread and sent from the loop
  (a phone that reads slowly holds no thread);
- ``Connection``, hypercorn's connection, closed as soon as the phone has closed its end
  (hypercorn's own waits for its keep-alive timer: the socket, and the address's share,
  held 10 s longer);
- ``Server``: the two ports bound at once (the address printed is already answering),
  served until ``stop()`` (hypercorn's ``worker_serve`` without what we do not use: its
  lifespan events, QUIC, several processes), its certificate loaded again by ``reload()``.
"""

import asyncio
import collections
import concurrent.futures
import contextlib
import email.utils
import functools
import io
import logging
import os
import signal
import socket
import ssl
import tempfile
import threading

from hypercorn.app_wrappers import WSGIWrapper, _build_environ
from hypercorn.asyncio.tcp_server import TCPServer
from hypercorn.asyncio.worker_context import WorkerContext
from hypercorn.config import Config

from . import bodies

#: the app's threads: each answers one whole request at a time (and keeps its own
#: connection to the database)
REQUEST_THREADS = 8
#: connections one address may hold at once, both ports together: a phone's browser opens
#: at most 6 a port; past this a guest's next connection is closed as it is accepted
CONNECTIONS_PER_ADDRESS = 32
#: the longest a TLS handshake may take (a phone on the Wi-Fi needs a fraction of a second)
HANDSHAKE_SECONDS = 3
#: a request's line and headers must arrive within this of the connection's opening, or
#: of the answer before (a phone sends them at once), and a connection idle between
#: requests is closed after it
HEADERS_SECONDS = 10
#: a connection on which nothing arrives for this long, even in the middle of a body, is closed
READ_SECONDS = 30
#: the largest request line and headers (a phone's are under 4 KB)
LARGEST_HEADERS = 64 * 1024
#: a body is kept in memory up to this, past it in a file (``upload_folder``)
SPOOLED_IN_MEMORY = 256 * 1024
#: the longest the answers under way are waited for when the server stops
STOPPING_SECONDS = 5
#: an answer is gathered whole in the app's thread up to this; past it (an export of a
#: long history) it is sent as it is written, the thread waiting on the phone
GATHERED_ANSWER = 8 * 1024 * 1024


class Doorway(socket.socket):
    """A listening socket that lets one address hold at most ``CONNECTIONS_PER_ADDRESS``
    connections: the next is closed as it is accepted. Accepting and closing both happen
    on the server's one loop, so the counts (shared by both ports) need no lock."""

    def __init__(self, family, held):
        super().__init__(family, socket.SOCK_STREAM)
        self.held = held

    def accept(self):
        while True:
            fd, address = self._accept()  # none waiting: BlockingIOError, which asyncio expects
            if self.held[address[0]] < CONNECTIONS_PER_ADDRESS:
                break
            os.close(fd)
        self.held[address[0]] += 1
        connection = _Counted(self.family, self.type, self.proto, fileno=fd)
        connection.door = (self.held, address[0])
        return connection, address


class _Counted(socket.socket):
    """An accepted connection, counted against its address until it is closed."""

    door = None

    def _real_close(self, *args, **kwargs):
        self._let_go()
        super()._real_close(*args, **kwargs)

    def __del__(self):
        self._let_go()
        super().__del__()  # closes a socket never closed (socket's own finalizer)

    def _let_go(self):
        if self.door is not None:
            held, address = self.door
            self.door = None
            held[address] -= 1
            if not held[address]:
                del held[address]


def listening(host, port, held):
    """A ``Doorway`` bound to ``host``:``port`` (0: a free one) and listening."""
    family, _, _, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    door = Doorway(family, held)
    try:
        door.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        door.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        door.bind(address)
        door.listen(128)
        door.setblocking(False)
    except OSError:
        door.close()
        raise
    return door


def tls_context(status):
    """The household certificate's TLS context (TLS 1.2 and up, Python's default suites,
    http/1.1 alone)."""
    context = ssl.create_default_context(purpose=ssl.Purpose.CLIENT_AUTH)
    context.set_alpn_protocols(["http/1.1"])
    context.load_cert_chain(status.server_cert_path, status.server_key_path)
    return context


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


class Connection(TCPServer):
    """Hypercorn's connection, closed once the phone has closed its end and no answer is
    under way (hypercorn's own waits for its keep-alive timer first)."""

    async def _read_data(self):
        await super()._read_data()
        await self.idle_task.stop()


def configured():
    config = Config()
    config.ssl_handshake_timeout = HANDSHAKE_SECONDS
    config.keep_alive_timeout = HEADERS_SECONDS
    config.read_timeout = READ_SECONDS
    config.h11_max_incomplete_size = LARGEST_HEADERS
    # no phone speaks HTTP/2 to us (TLS offers http/1.1 alone), but hypercorn takes it in
    # plain text from a client that asks: its streams a connection may open at once, few
    config.h2_max_concurrent_streams = 8
    config.h2_max_inbound_frame_size = 16 * 1024
    config.include_server_header = False
    config.include_date_header = False  # the gate adds one where the app gave none (Gate.run_app)
    config.accesslog = None
    # what goes wrong (an exception out of the app) is logged here, and so to stderr
    config.errorlog = logging.getLogger("scorekeeper.server")
    return config


class Server:
    """The app on ``port`` over http (0: a free port; bound when this returns), and over
    https once ``secure()`` is given the certificates. ``run()`` serves until ``stop()``
    (from any thread, or SIGINT/SIGTERM in the main thread)."""

    def __init__(self, app, host, port, folder=None):
        self.app = app
        self.host = host
        self.folder = upload_folder(folder)
        self.held = collections.Counter()
        self.http = listening(host, port, self.held)
        self.http_port = self.http.getsockname()[1]
        self.https = self.https_port = self.context = self.serving = None
        self.loop = None
        self._stopping = None
        self._ready = threading.Event()
        self._asked_to_stop = False

    def secure(self, port, status):
        """Serve https on ``port`` (0: a free one) too, with the certificates' ``status``
        (bound when this returns)."""
        context = tls_context(status)
        self.https = listening(self.host, port, self.held)
        self.https_port = self.https.getsockname()[1]
        self.context, self.serving = context, status.server

    def run(self):
        try:
            asyncio.run(self._serve())
        finally:
            self.close()

    async def _serve(self):
        self.loop = asyncio.get_running_loop()
        threads = concurrent.futures.ThreadPoolExecutor(REQUEST_THREADS, thread_name_prefix="request")
        self.loop.set_default_executor(threads)
        self._stopping = asyncio.Event()
        if threading.current_thread() is threading.main_thread():
            for number in (signal.SIGINT, signal.SIGTERM):
                self.loop.add_signal_handler(number, self._stopping.set)
        self._ready.set()
        if self._asked_to_stop:
            return
        gate, config, context = Gate(self.app, self.folder), configured(), WorkerContext(None)
        answering = set()

        async def connected(reader, writer):
            task = asyncio.current_task()
            answering.add(task)
            task.add_done_callback(answering.discard)
            await Connection(gate, self.loop, config, context, {}, reader, writer)

        ports = [await asyncio.start_server(connected, sock=self.http)]
        if self.https:
            ports.append(
                await asyncio.start_server(
                    connected, sock=self.https, ssl=self.context, ssl_handshake_timeout=HANDSHAKE_SECONDS
                )
            )
        await self._stopping.wait()
        await context.terminated.set()  # every idle connection closes now
        for port in ports:
            port.close()
        if answering:  # the answers under way, finished
            await asyncio.wait(answering, timeout=STOPPING_SECONDS)

    def stop(self):
        """Stop answering (from any thread): the ports closed, the answers under way finished."""
        self._asked_to_stop = True
        if self._ready.is_set() and self.loop and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):  # its loop already ended
                self.loop.call_soon_threadsafe(self._stopping.set)

    def close(self):
        """The ports closed (a server never run, or one that has stopped)."""
        for door in (self.http, self.https):
            if door is not None:
                door.close()

    def reload(self, status):
        """Serve a certificate issued again from the next handshake on (the connections
        open keep theirs): loaded into the context on the loop, which makes every
        handshake, so that none is under way meanwhile."""

        def load():
            self.context.load_cert_chain(status.server_cert_path, status.server_key_path)
            self.serving = status.server

        if self.loop is not None and self.loop.is_running():
            done = concurrent.futures.Future()

            def on_the_loop():
                try:
                    load()
                except BaseException as error:
                    done.set_exception(error)
                else:
                    done.set_result(None)

            self.loop.call_soon_threadsafe(on_the_loop)
            done.result(timeout=30)
        else:
            load()
