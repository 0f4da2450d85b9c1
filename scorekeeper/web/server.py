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
- ``gate.Gate`` (``web/gate.py``), hypercorn's WSGI wrapper with the body bounded by its
  route before a byte is read and spooled to a disk, and the answer gathered in the app's
  thread and sent from the loop (a phone that reads slowly holds no thread);
- ``Connection``, hypercorn's connection, closed as soon as the phone has closed its end
  (hypercorn's own waits for its keep-alive timer: the socket, and the address's share,
  held 10 s longer), and not before a phone still sending a refused body has read the
  refusal (``LINGER_SECONDS``);
- ``Server``: the two ports bound at once (the address printed is already answering),
  served until ``stop()`` (hypercorn's ``worker_serve`` without what we do not use: its
  lifespan events, QUIC, several processes), its certificate loaded again by ``reload()``.
"""

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import os
import signal
import socket
import ssl
import threading

import h11
from hypercorn.asyncio.tcp_server import MAX_RECV, TCPServer
from hypercorn.asyncio.worker_context import WorkerContext
from hypercorn.config import Config
from hypercorn.events import Closed, RawData
from hypercorn.protocol.h11 import H11Protocol

from .gate import Gate, upload_folder

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
#: the longest the rest of a refused body (a photo past its page's limit) is read and dropped
#: after the refusal is sent, the phone still sending it (nginx's lingering close: 30 s too)
LINGER_SECONDS = 30
#: the longest the answers under way are waited for when the server stops
STOPPING_SECONDS = 5


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


class Connection(TCPServer):
    """Hypercorn's connection, closed once the phone has closed its end and no answer is
    under way (hypercorn's own waits for its keep-alive timer first); one whose answer went
    out while its request's body was still arriving (a body refused unread, ``gate.Gate``)
    is closed once the rest has arrived (read and dropped) or the phone has closed its end,
    or after ``LINGER_SECONDS``."""

    lingering = False

    async def _read_data(self):
        # hypercorn's loop, ended as well when a refused body is over (``protocol_send``)
        while not self.reader.at_eof():
            try:
                data = await asyncio.wait_for(self.reader.read(MAX_RECV), self.config.read_timeout)
            except (TimeoutError, OSError, ssl.SSLError):
                break
            await self.protocol.handle(RawData(data))
            if self.lingering and not self._body_arriving():
                break
        await self.protocol.handle(Closed())
        await self.idle_task.stop()

    async def protocol_send(self, event):
        if isinstance(event, Closed) and not self.lingering and self._body_arriving():
            # Closed now, the phone's body still arriving, the system answers its next bytes
            # with a reset, and Chromium over https showed "connection reset"
            # (ERR_CONNECTION_RESET) for a 21 MB photo instead of the 413 page it had been
            # sent. The reading goes on, what arrives dropped (nothing is kept), as nginx's
            # lingering close does, until the body is over or the phone closes its end (then
            # ``_read_data`` closes it), after LINGER_SECONDS, or READ_SECONDS of nothing.
            self.lingering = True
            await self.idle_task.restart(self._task_group, self._linger)
            return
        await super().protocol_send(event)

    def _body_arriving(self):
        """Whether the phone is still sending its request's body (HTTP/1.1); past the
        answer, what of it has arrived is dropped here (hypercorn stops at its first part)."""
        protocol = getattr(getattr(self, "protocol", None), "protocol", None)
        if not isinstance(protocol, H11Protocol):
            return False
        connection = protocol.connection
        try:
            while connection.their_state is h11.SEND_BODY and protocol.stream is None:
                if connection.next_event() in (h11.NEED_DATA, h11.PAUSED):
                    break
        except h11.RemoteProtocolError:  # a broken chunk: nothing more to wait for
            return False
        return connection.their_state is h11.SEND_BODY

    async def _linger(self):
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.context.terminated.wait(), LINGER_SECONDS)
        await asyncio.shield(self._initiate_server_close())


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
