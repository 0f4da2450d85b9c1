"""`flask restore` refuses anything that is not a sound Scorekeeper backup, and
`flask backup` never leaves a half-written file behind.

Refused means: the command exits non-zero without a traceback, the live
database is exactly as it was (every table's rows, read-only), and every page
still answers 200. The bad backups are made from a real backup with the stdlib
sqlite3 module (a table dropped, a migration from a newer app, ...), as a
family's files go wrong.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scorekeeper.scoring.presets import RULESETS

from ..helpers import built_once
from ..httpkit import (
    FlaskPhone,
    checkpoint,
    end_game,
    fingerprint,
    fingerprint_diff,
    make_app,
    make_house_rules,
    save_round,
    start_game,
)

PAGES = [
    "/",
    "/games/1",
    "/games/1.json",
    "/games/2",
    "/history",
    "/players",
    "/players/1",
    "/rules",
    "/export.json",
    "/export.csv",
    "/games/1/sheet",
    "/games/1/rounds/1/edit",
]
ROUND = {
    "went_out": "0",
    0: {"book_clean": 1, "melded_points": 150},
    1: {"melded_points": 60, "unplayed_points": 35},
}


@pytest.fixture(scope="module")
def family_file(tmp_path_factory):
    """A family's data (house rules, a game being played, a finished one) typed in once for
    the run through a phone, as one database file (``built_once``: the test processes share
    it); each test copies it. Typing it in was 0.4 s of every one of this module's tests."""

    def build(folder):
        database = folder / "scorekeeper.db"
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("SCOREKEEPER_INSTANCE_PATH", str(folder / "instance"))
            patch.delenv("SCOREKEEPER_DATABASE", raising=False)
            phone = FlaskPhone(make_app(database))
            key = make_house_rules(phone, "Ours", going_out="100, 200")
            playing = start_game(phone, key)
            done = start_game(phone, "roth", (("", ("Ann",)), ("", ("Cy",))))
            for game in (playing, done):
                assert save_round(phone, game, ROUND).status in (302, 303)
            assert end_game(phone, done).status in (302, 303)
        checkpoint(database)  # one file holds it all
        return str(database)

    return Path(built_once(tmp_path_factory, "restore-checks-family", build))


@pytest.fixture
def live(family_file, tmp_path, monkeypatch):
    """An app with a family's data in it: house rules, a game being played, a finished one
    (``family_file``'s copy), and a phone at home on it."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_DATABASE", raising=False)
    database = tmp_path / "live" / "scorekeeper.db"
    database.parent.mkdir()
    shutil.copyfile(family_file, database)
    from scorekeeper import create_app

    app = create_app({"TESTING": True, "DATABASE": str(database)})
    return app, FlaskPhone(app), database


def backup(app, path):
    result = app.test_cli_runner().invoke(args=["backup", str(path)])
    assert result.exit_code == 0, result.output
    return path


def _migrations_row(conn, name):
    conn.execute(
        "INSERT INTO _sqlite_migrations (migration_set, name, applied_at) VALUES (?, ?, ?)",
        ["scorekeeper", name, "2099-01-01T00:00:00"],
    )


def make_bad(kind, good, path):
    """A bad backup of one kind, from the good one."""
    if kind == "not SQLite":
        path.write_text("game,date,team\n1,2026-01-05,Ann & Bo\n" * 200)
        return path
    if kind == "empty file":
        path.write_bytes(b"")
        return path
    shutil.copyfile(good, path)
    data = bytearray(path.read_bytes())
    if kind == "truncated to 60%":
        path.write_bytes(bytes(data[: len(data) * 6 // 10]))
    elif kind == "a page overwritten":
        page = int.from_bytes(data[16:18], "big") or 65536
        at = page * (len(data) // page // 2)
        data[at : at + page] = bytes((i * 37 + 11) % 256 for i in range(page))
        path.write_bytes(bytes(data))
    elif kind == "header damaged":
        data[0:16] = b"SQLite format 2\x00"
        path.write_bytes(bytes(data))
    else:
        conn = sqlite3.connect(path)
        try:
            if kind == "foreign SQLite database":
                conn.close()
                path.unlink()
                conn = sqlite3.connect(path)
                conn.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT)")
                conn.execute("INSERT INTO recipes (name) VALUES ('pancakes')")
            elif kind.startswith("table dropped: "):
                conn.execute(f"DROP TABLE {kind.split(': ')[1]}")
            elif kind == "column dropped: teams.won":
                conn.execute("ALTER TABLE teams DROP COLUMN won")
            elif kind == "from a newer Scorekeeper":
                _migrations_row(conn, "m999_from_the_future")
            elif kind == "a trigger that sets every new share link":
                conn.execute(
                    """CREATE TRIGGER known_links AFTER INSERT ON games BEGIN
                       UPDATE games SET share_token = 'known-to-the-author' WHERE id = new.id; END"""
                )
            elif kind == "a view":
                conn.execute("CREATE VIEW everyone AS SELECT name FROM players")
            elif kind == "rows pointing at nothing (foreign keys broken)":
                conn.execute("DELETE FROM rounds WHERE id = (SELECT MIN(id) FROM rounds)")
                conn.execute("DELETE FROM players WHERE id = (SELECT MIN(id) FROM players)")
            elif kind == "share links no longer unique (their index partial, WHERE 0)":
                # every name the same: only what the index does differs
                conn.execute("DROP INDEX idx_games_share_token")
                conn.execute("CREATE INDEX idx_games_share_token ON games (share_token) WHERE 0")
            elif kind == "share links' index dropped":
                conn.execute("DROP INDEX idx_games_share_token")
            elif kind == "wrong passcodes that cannot be counted (CHECK (wrong < 0))":
                # after restoring it, no one could sign in: every guess's count is refused
                conn.execute("DROP TABLE passcode_guesses")
                conn.execute(
                    """CREATE TABLE passcode_guesses (scope TEXT PRIMARY KEY,
                       wrong INTEGER NOT NULL CHECK (wrong < 0), last_at TEXT NOT NULL, waiting_until TEXT)"""
                )
            elif kind == "round ids given again (AUTOINCREMENT taken away)":
                # a phone fixing round 3 must fix that round or nothing (m005)
                (sql,) = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'rounds'").fetchone()
                conn.execute(sql.replace("AUTOINCREMENT", "").replace('"rounds"', "rounds_new", 1))
                conn.execute("INSERT INTO rounds_new SELECT * FROM rounds")
                conn.execute("DROP TABLE rounds")
                conn.execute("ALTER TABLE rounds_new RENAME TO rounds")
                conn.execute("CREATE UNIQUE INDEX idx_rounds_game_id_number ON rounds (game_id, number)")
            else:
                raise AssertionError(kind)
            conn.commit()
        finally:
            conn.close()
    return path


BAD = [
    "not SQLite",
    "empty file",
    "truncated to 60%",
    "a page overwritten",
    "header damaged",
    "foreign SQLite database",
    "table dropped: revisions",
    "table dropped: round_entries",
    "column dropped: teams.won",
    "from a newer Scorekeeper",
    "rows pointing at nothing (foreign keys broken)",
    "a trigger that sets every new share link",
    "a view",
    # issue 53: the same names, made otherwise
    "share links no longer unique (their index partial, WHERE 0)",
    "share links' index dropped",
    "wrong passcodes that cannot be counted (CHECK (wrong < 0))",
    "round ids given again (AUTOINCREMENT taken away)",
]


@pytest.mark.parametrize("kind", BAD)
def test_restore_refuses_a_bad_backup_and_keeps_the_live_data(live, tmp_path, kind):
    app, phone, database = live
    good = backup(app, tmp_path / "good.db")
    bad = make_bad(kind, good, tmp_path / f"bad-{BAD.index(kind)}.db")
    before = fingerprint(database)
    pages_before = {url: phone.get(url).status for url in PAGES}
    assert set(pages_before.values()) == {200}, pages_before

    result = app.test_cli_runner().invoke(args=["restore", str(bad)])

    problems = []
    crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
    if result.exit_code == 0:
        problems.append(f"restore accepted it: {result.output.strip()}")
    elif crashed:
        problems.append(
            f"restore crashed instead of refusing: {type(result.exception).__name__}: {result.exception}"
        )
    try:
        after = fingerprint(database)
        if after != before:
            problems.append("the live database changed: " + fingerprint_diff(before, after)[:400])
    except sqlite3.DatabaseError as error:
        problems.append(f"the live database is unreadable now: {error}")
    pages = {url: phone.get(url) for url in PAGES}
    broken = {url: f"{r.status} {r.error or ''}".strip() for url, r in pages.items() if r.status != 200}
    if broken:
        problems.append(f"pages no longer 200: {broken}")
    assert not problems, f"restore of a backup that is {kind!r}:\n" + "\n".join(problems)


def test_restore_of_a_good_backup_works(live, tmp_path):
    """The control: a sound backup of this app is restored, and the pages work."""
    app, phone, database = live
    good = backup(app, tmp_path / "good.db")
    before = fingerprint(database)
    result = app.test_cli_runner().invoke(args=["restore", str(good)])
    assert result.exit_code == 0, result.output
    assert fingerprint(database) == before
    assert {url: phone.get(url).status for url in PAGES} == dict.fromkeys(PAGES, 200)


# --- backup leaves no half file -------------------------------------------------------------------


def partials(directory):
    return sorted(p.name for p in Path(directory).iterdir() if ".partial" in p.name)


def _flask(args, env):
    return [sys.executable, "-m", "flask", "--app", "scorekeeper", *args], {
        **os.environ,
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }


@pytest.mark.long  # as root, the command in a process of its own without its capabilities: 1.5 s
def test_backup_into_a_read_only_directory_leaves_no_partial(live, tmp_path):
    app, _, database = live
    checkpoint(database)
    readonly = tmp_path / "read-only"
    readonly.mkdir()
    target = readonly / "backup.db"
    readonly.chmod(0o555)
    try:
        if os.geteuid() != 0:
            result = app.test_cli_runner().invoke(args=["backup", str(target)])
            code, output = result.exit_code, result.output
            crashed = result.exception is not None and not isinstance(result.exception, SystemExit)
        else:
            # root writes anywhere: run the command as root without the capabilities that
            # override file permissions, so the directory's mode counts
            setpriv = shutil.which("setpriv")
            if setpriv is None:
                pytest.skip("running as root without setpriv: cannot make a directory read-only")
            command, env = _flask(["backup", str(target)], {"SCOREKEEPER_DATABASE": str(database)})
            done = subprocess.run(
                [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--", *command],
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            code, output = done.returncode, done.stdout + done.stderr
            crashed = "Traceback" in output
    finally:
        readonly.chmod(0o755)
    assert code != 0 and not crashed, f"backup into a read-only directory: exit {code}\n{output[-1500:]}"
    assert not target.exists()
    assert not partials(readonly), f"left behind: {partials(readonly)}"


KILL_HALF_WAY = textwrap.dedent("""
    import os, signal, sys
    from scorekeeper.exchange.backup import backup_database

    def progress(status, remaining, total):
        if remaining <= total // 2:  # half the pages copied: the power goes
            os.kill(os.getpid(), signal.SIGKILL)

    backup_database(sys.argv[1], sys.argv[2], progress=progress)
""")


def test_backup_killed_half_way_leaves_no_partial(live, tmp_path):
    """SIGKILL the backup half-way through the copy: nothing half-written is left beside the target."""
    app, _, database = live
    checkpoint(database)
    big = tmp_path / "big.db"
    shutil.copyfile(database, big)
    conn = sqlite3.connect(big)
    try:  # ~8 MB of change-log text: many pages, so "half-way" is well inside the copy
        text = "x" * (64 * 1024)
        conn.executemany(
            "INSERT INTO revisions (game_id, action, summary, created_at) VALUES (1, 'x', ?, 'now')",
            [(text + str(i),) for i in range(120)],
        )
        conn.commit()
    finally:
        conn.close()
    out = tmp_path / "out"
    out.mkdir()
    target = out / "backup.db"
    killed = subprocess.run(
        [sys.executable, "-c", KILL_HALF_WAY, str(big), str(target)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert sorted(p.name for p in out.iterdir()) == [], "a killed backup left files behind"
    # and the next backup works and is sound
    result = app.test_cli_runner().invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert sqlite3.connect(target).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert partials(out) == []


@pytest.mark.parametrize(
    "kind, said",
    [
        ("a trigger that sets every new share link", "the trigger “known_links”"),
        ("a view", "the view “everyone”"),
    ],
)
def test_restore_says_what_a_crafted_backup_holds(live, tmp_path, kind, said):
    app, _, _ = live
    bad = make_bad(kind, backup(app, tmp_path / "good.db"), tmp_path / "crafted.db")
    result = app.test_cli_runner().invoke(args=["restore", str(bad)])
    assert result.exit_code == 1 and f"holds what Scorekeeper never makes ({said})" in result.output


@pytest.mark.parametrize(
    "kind, said",
    [
        (
            "share links no longer unique (their index partial, WHERE 0)",
            "the index “idx_games_share_token” is not as Scorekeeper makes it "
            "(whether its values must be unique, which rows it covers): refused, nothing restored",
        ),
        ("share links' index dropped", "damaged: the index “idx_games_share_token” is missing"),
        (
            "wrong passcodes that cannot be counted (CHECK (wrong < 0))",
            "the table “passcode_guesses” is not as Scorekeeper makes it (the rules on its values): "
            "refused, nothing restored",
        ),
        (
            "round ids given again (AUTOINCREMENT taken away)",
            "the table “rounds” is not as Scorekeeper makes it (the rules on its values): "
            "refused, nothing restored",
        ),
    ],
)
def test_restore_says_which_object_is_made_otherwise(live, tmp_path, kind, said):
    app, _, _ = live
    bad = make_bad(kind, backup(app, tmp_path / "good.db"), tmp_path / "crafted.db")
    result = app.test_cli_runner().invoke(args=["restore", str(bad)])
    assert result.exit_code == 1 and result.output == f"Error: {bad}: {said}\n"


def written_otherwise(path):
    """Every object's CREATE text written as other versions of sqlite-utils and SQLite
    write it, meaning the same: names in [brackets] or bare, keywords in lower case, other
    whitespace and a comment, a foreign key as a table constraint, FLOAT for REAL, an
    explicit ASC dropped, IF NOT EXISTS. The file's pages are untouched (SQLite's
    writable_schema), so only the text differs."""
    conn = sqlite3.connect(path)
    try:
        texts = conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
        conn.execute("PRAGMA writable_schema = ON")
        for name, sql in texts:
            other = re.sub(r'"([a-z_]+)"', r"[\1]", sql)  # no string literal in the schema holds one
            other = " ".join(other.split()).lower().replace("create table", "CREATE TABLE /* kept */", 1)
            other = other.replace(" asc,", ",").replace("real not null", "FLOAT NOT NULL")
            if name == "games":
                other = other.replace("[first_dealer] integer references [players]([id])", "first_dealer INT")
                other = other[:-1] + ", FOREIGN KEY (first_dealer) REFERENCES players (id))"
            if name == "imports":
                other = other.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1)
            conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", [other, name])
        (version,) = conn.execute("PRAGMA schema_version").fetchone()
        conn.execute(f"PRAGMA schema_version = {version + 1}")
        conn.commit()
        changed = conn.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
    finally:
        conn.close()
    assert len(changed) == len(texts) and not set(changed) & set(texts)  # every text differs
    return path


def test_restore_takes_a_backup_whose_schema_is_written_otherwise(live, tmp_path):
    """Harmless differences refuse nothing: a backup whose every CREATE text is written
    otherwise, meaning the same, is restored, and every page answers."""
    app, phone, database = live
    before = fingerprint(database)
    other = written_otherwise(backup(app, tmp_path / "other.db"))
    with sqlite3.connect(other) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    result = app.test_cli_runner().invoke(args=["restore", str(other)])
    assert result.exit_code == 0, result.output
    assert fingerprint(database) == before
    assert {url: phone.get(url).status for url in PAGES} == dict.fromkeys(PAGES, 200)


def test_restore_takes_a_database_migrated_a_step_at_a_time_with_rows_between(live, tmp_path):
    """A family's database is migrated over months, a migration at a time (each start's
    init-db), with games between: rounds before m005 rebuilt them, summaries before m013
    renamed and transformed theirs. Its schema is the one a fresh migration makes; restored,
    its games show."""
    from sqlite_utils import Database

    from scorekeeper.storage.migrations import migrations

    app, phone, _ = live
    path = tmp_path / "over-the-months.db"
    names = [m.name for m in migrations._migrations]
    for step, name in enumerate(names):
        with contextlib.closing(Database(path)) as db:  # a start of the app: a connection of its own
            if name == "m005_round_ids_never_reused":
                db.execute(
                    "INSERT INTO players (id, name, created_at) VALUES (1, 'Ann', 'x'), (2, 'Cy', 'x')"
                )
                db.execute(
                    "INSERT INTO games (id, uid, rules, rules_key, rules_name, created_at, updated_at)"
                    " VALUES (1, 'u1', ?, 'roth', 'Roth', '2025-03-01T20:00:00+00:00', 'x')",
                    [RULESETS["roth"].to_json()],
                )
                db.execute(
                    "INSERT INTO teams (id, game_id, position, name) VALUES (1, 1, 0, 'Ann'), (2, 1, 1, 'Cy')"
                )
                db.execute("INSERT INTO team_players VALUES (1, 1, 0), (2, 2, 0)")
                db.execute(
                    "INSERT INTO rounds (id, game_id, number, version, created_at, updated_at)"
                    " VALUES (1, 1, 1, 1, 'x', 'x')"
                )
                for team, melded in ((1, 400), (2, 100)):
                    db.execute(
                        "INSERT INTO round_entries (round_id, team_id, books, melded_points, unplayed_points,"
                        " red_threes, black_threes, red_threes_melded, went_out, cuts, penalties, score)"
                        " VALUES (1, ?, '{}', ?, 0, 0, 0, 0, 0, 0, 0, ?)",
                        [team, melded, melded],
                    )
            if name == "m013_played_and_paper":
                db.execute(
                    "INSERT INTO player_games (player_id, game_id, team_id, created_at, finished, won,"
                    " total, rounds, points, went_out)"
                    " VALUES (1, 1, 1, '2025-03-01T20:00:00+00:00', 0, 0, 400, 1, 400, 0)"
                )
                db.execute(
                    "INSERT INTO game_records VALUES (1, 'Roth', '2025-03-01T20:00:00+00:00', '2025-03-01',"
                    " 400, 0, 300, 0, 0, 0, NULL, 400, 0, 1, 100, 1, 1, 0, 0, 1)"
                )
            migrations.apply(db, stop_before=names[step + 1] if step + 1 < len(names) else None)
    result = app.test_cli_runner().invoke(args=["restore", str(path)])
    assert result.exit_code == 0, result.output
    page = phone.get("/games/1")
    assert page.status == 200 and "Ann" in page.text


def test_an_older_backup_is_compared_with_the_schema_of_its_own_version(live, tmp_path):
    """A backup from before m016 (no passcode_guesses yet) is compared with a database
    migrated as far as it was, then migrated forward once restored; made otherwise at its
    own version (its share links' index partial), it is refused."""
    from sqlite_utils import Database

    from scorekeeper.storage.migrations import migrations

    app, _, database = live
    older = tmp_path / "older.db"
    with contextlib.closing(Database(older)) as db:
        migrations.apply(db, stop_before="m016_passcode_guesses")
    crafted = tmp_path / "older-crafted.db"
    shutil.copyfile(older, crafted)
    with contextlib.closing(sqlite3.connect(crafted)) as conn:
        conn.execute("DROP INDEX idx_games_share_token")
        conn.execute("CREATE INDEX idx_games_share_token ON games (share_token) WHERE 0")
        conn.commit()
    before = fingerprint(database)
    result = app.test_cli_runner().invoke(args=["restore", str(crafted)])
    assert result.exit_code == 1 and "the index “idx_games_share_token” is not as Scorekeeper makes it" in (
        result.output
    )
    assert fingerprint(database) == before
    result = app.test_cli_runner().invoke(args=["restore", str(older)])
    assert result.exit_code == 0, result.output
    with contextlib.closing(sqlite3.connect(database)) as conn:
        assert conn.execute("SELECT count(*) FROM passcode_guesses").fetchone() == (0,)  # migrated forward


def test_every_file_the_app_writes_is_its_owners_alone(tmp_path, monkeypatch):
    """The database (and its WAL), an automatic backup, a backup by hand and the copy a
    restore keeps: 0600, in 0700 folders, under the usual umask (issue 43)."""
    import stat

    from scorekeeper.exchange import autobackup

    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    database = tmp_path / "instance" / "scorekeeper.db"
    previous = os.umask(0o022)
    try:
        from scorekeeper import create_app

        app = create_app({"TESTING": True, "DATABASE": str(database)})
        assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
        phone = FlaskPhone(app)
        start_game(phone, "roth")
        made = autobackup.AutoBackup(database, tmp_path / "instance" / "backups").make().path
        by_hand = backup(app, tmp_path / "by-hand.db")
        result = app.test_cli_runner().invoke(args=["restore", str(by_hand)])
        assert result.exit_code == 0, result.output
        (kept,) = database.parent.glob("scorekeeper.db.before-restore-*")
        files = [database, Path(f"{database}-wal"), made, by_hand, kept]
        modes = {path.name: oct(stat.S_IMODE(path.stat().st_mode)) for path in files}
        assert set(modes.values()) == {"0o600"}, modes
        folders = [tmp_path / "instance", tmp_path / "instance" / "backups"]
        assert {oct(stat.S_IMODE(f.stat().st_mode)) for f in folders} == {"0o700"}
    finally:
        os.umask(previous)


def test_init_db_makes_the_files_of_before_private(live, tmp_path):
    """A family's files from before (0644, as every earlier version made them): the next
    start (make run's init-db) makes them owner-only."""
    import stat

    from scorekeeper.exchange import autobackup

    app, _, database = live
    folder = autobackup.backup_folder(app)
    folder.mkdir(parents=True, exist_ok=True)
    old = [backup(app, folder / "scorekeeper-20250101T000000Z.db"), database]
    old.append(backup(app, database.with_name("scorekeeper.db.before-restore-20250101T000000Z")))
    for path in old:
        os.chmod(path, 0o644)
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
    assert {oct(stat.S_IMODE(path.stat().st_mode)) for path in old} == {"0o600"}


def test_the_app_takes_no_backup_over_the_wifi_and_its_import_writes_nothing_of_one(live, tmp_path):
    """The app takes no database file over the Wi-Fi: no page restores (restore is a
    command at the computer, ``flask … restore``, where the tests above compare the schema
    of crafted backups). Its import, given a backup, says it is not a JSON file and writes
    nothing. (A crafted backup here would test nothing more: the upload refuses any
    database before reading it, so the crafted kinds are the restore's tests above.)"""
    app, phone, database = live
    assert not [
        rule.rule
        for rule in app.url_map.iter_rules()
        if rule.methods & {"POST", "PUT"}
        and ("restore" in rule.endpoint or "backup" in rule.endpoint)
        and rule.endpoint != "deleted.restore"  # a deleted game brought back (issue 54): no file
    ], "a page that takes a backup: test its schema check here"
    good = backup(app, tmp_path / "good.db")
    checkpoint(database)
    before = fingerprint(database)
    form, page = phone.open_form("/import")
    answer = phone.submit(form, page, files=[("file", "scorekeeper-backup.db", good.read_bytes())])
    assert answer.status == 422 and "Nothing was imported: not a JSON file" in answer.text, answer.status
    checkpoint(database)
    assert fingerprint(database) == before, fingerprint_diff(before, fingerprint(database))
