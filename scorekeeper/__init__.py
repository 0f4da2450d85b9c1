"""Scorekeeper: the scorekeeping companion for Hand and Foot."""

import datetime
import os
import secrets

from flask import Flask
from flask_wtf.csrf import CSRFProtect

from .storage.private import private_folder
from .web.resources import resource_folder

csrf = CSRFProtect()


def create_app(test_config=None):
    """Create the app: config, the Host check and headers, the database, sign-in, CSRF, blueprints."""
    instance_path = os.environ.get("SCOREKEEPER_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_relative_config=True,
        instance_path=os.path.abspath(instance_path) if instance_path else None,
        template_folder=resource_folder("templates"),
        static_folder=resource_folder("static"),
    )
    app.config.from_mapping(
        DATABASE=os.path.join(app.instance_path, "scorekeeper.db"),
        # a form opened at the start of an evening's game still posts at its end
        WTF_CSRF_TIME_LIMIT=12 * 3600,
        PAPER="letter",  # the sheets' default paper: "letter" or "a4" (instance/config.py)
        # the largest request body, but where a view takes more (web/bodies.py: the imports);
        # refused before it is read (house-rules files are ~1 KB)
        MAX_CONTENT_LENGTH=1024 * 1024,
        # with a passcode set, a phone signs in once an evening (the session cookie
        # is HttpOnly and SameSite=Lax; Secure over https: security.SessionOverEither)
        PERMANENT_SESSION_LIFETIME=datetime.timedelta(hours=12),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PASSCODE_GUESSES="5 per minute; 20 per hour",  # wrong passcodes per phone
        EXTRA_HOSTS=[],  # names the app is served as besides localhost and this machine's
        FOLLOW_POLL_SECONDS=5,  # how often a phone following a game asks for news
        # the photos of games' paper sheets, kept with their games (storage/photos.py)
        PHOTOS=os.path.join(app.instance_path, "photos"),
    )
    app.config.from_pyfile("config.py", silent=True)
    if os.environ.get("SCOREKEEPER_DATABASE"):
        app.config["DATABASE"] = os.environ["SCOREKEEPER_DATABASE"]
    if test_config is not None:
        app.config.update(test_config)
    private_folder(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)

    from . import background, cli, views
    from .exchange import autobackup
    from .forms import attributes, markup
    from .services import catch_up
    from .services import deleted as deleted_games
    from .storage import db
    from .views import (
        auth,
        backups,
        deleted,
        evenings,
        exchange,
        games,
        history,
        home,
        paper,
        photos,
        players,
        records,
        rounds,
        rules,
        share,
        sheets,
        trust,
        webapp,
    )
    from .views import (
        language as language_views,
    )
    from .web import assets, bodies, charts, formatting, language, security

    security.init_app(app)  # first: an unknown Host is refused before anything else runs
    bodies.init_app(app)  # each request's body bounded by what its view takes (web/bodies.py)
    trust.init_app(app)  # then, with every phone paired, http is sent to https
    background.init_app(app)  # the requests being answered, counted: work after them waits
    db.init_app(app)
    catch_up.init_app(app)  # the ratings after a change to an old game, without holding the lock
    deleted_games.init_app(app)  # deleted games gone for good after 30 days, looked at as the app opens
    autobackup.init_app(app)  # a request that changed something is backed up after it
    assets.init_app(app)
    language.init_app(app)  # Flask-Babel: the page's language (the phone's, the household's)
    formatting.init_app(app)
    charts.init_app(app)  # the marker shapes the charts and the players' colours draw
    attributes.install()  # WTForms' fields written at a third of the cost, the same text
    markup.init_app(app)  # field, stepper, book_chips, choice_list, messages
    cli.init_app(app)
    views.init_app(app)
    auth.init_app(app)  # before CSRF: a phone not signed in is sent to sign in first
    csrf.init_app(app)
    blueprints = (
        home,
        language_views,
        rules,
        games,
        rounds,
        deleted,
        paper,
        photos,
        evenings,
        players,
        records,
        sheets,
        history,
        exchange,
        auth,
        backups,
        share,
        trust,
        webapp,
    )
    for blueprint in blueprints:
        app.register_blueprint(blueprint.bp)
    return app


def instance_secret_key(instance_path):
    """Read the instance's secret key, making it (once, owner-only) if missing."""
    path = os.path.join(instance_path, "secret_key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with open(path, encoding="ascii") as file:
            return file.read().strip()
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(key + "\n")
    return key
