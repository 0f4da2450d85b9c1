"""`flask restore` refuses anything that is not a sound Scorekeeper backup, and
`flask backup` never leaves a half-written file behind.

Refused means: the command exits non-zero without a traceback, the live
database is exactly as it was (every table's rows, read-only), and every page
still answers 200. The bad backups are made from a real backup with the stdlib
sqlite3 module (a table dropped, a migration from a newer app, ...), as a
family's files go wrong.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

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


@pytest.fixture
def live(tmp_path, monkeypatch):
    """An app with a family's data in it: house rules, a game being played, a finished one."""
    monkeypatch.setenv("SCOREKEEPER_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.delenv("SCOREKEEPER_DATABASE", raising=False)
    database = tmp_path / "live" / "scorekeeper.db"
    database.parent.mkdir()
    app = make_app(database)
    phone = FlaskPhone(app)
    key = make_house_rules(phone, "Ours", going_out="100, 200")
    playing = start_game(phone, key)
    done = start_game(phone, "roth", (("", ("Ann",)), ("", ("Cy",))))
    for game in (playing, done):
        assert save_round(phone, game, ROUND).status in (302, 303)
    assert end_game(phone, done).status in (302, 303)
    return app, phone, database


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


@pytest.mark.parametrize("kind", ["a trigger that sets every new share link", "a view"])
def test_the_apps_upload_refuses_a_crafted_backup_and_writes_nothing(live, tmp_path, kind):
    """The app takes no database file over the Wi-Fi (restore is a command at the
    computer); its import, given one, says it is not a history export and writes nothing."""
    app, phone, database = live
    bad = make_bad(kind, backup(app, tmp_path / "good.db"), tmp_path / "crafted.db")
    checkpoint(database)
    before = fingerprint(database)
    form, page = phone.open_form("/import")
    answer = phone.submit(form, page, files=[("file", "scorekeeper-backup.db", bad.read_bytes())])
    assert answer.status == 422 and "Nothing was imported" in answer.text, answer.status
    checkpoint(database)
    assert fingerprint(database) == before, fingerprint_diff(before, fingerprint(database))
