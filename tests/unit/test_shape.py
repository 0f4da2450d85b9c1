"""A schema's shape (storage/shape.py): what SQLite would read the same compares equal,
what it would do otherwise does not. Each case is a real SQLite database in memory."""

import sqlite3

import pytest

from scorekeeper.storage import shape

BASE = """CREATE TABLE "games" ("id" INTEGER PRIMARY KEY, "token" TEXT, "wrong" INTEGER NOT NULL DEFAULT 0);
CREATE UNIQUE INDEX "idx_token" ON "games" ("token");
CREATE TABLE "rounds" ("id" INTEGER PRIMARY KEY AUTOINCREMENT,
    "game_id" INTEGER NOT NULL REFERENCES "games"("id"), "number" INTEGER NOT NULL CHECK ("number" >= 1));"""


def shape_of(script):
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(script)
        return shape.shape(conn)
    finally:
        conn.close()


@pytest.mark.parametrize(
    "script",
    [
        # names bracketed, back-quoted or bare; keywords in lower case; a comment; one line
        """create table [games] ([id] integer primary key, `token` text, wrong integer not null default 0);
           create unique index idx_token on games (token asc); -- the share links
           create table rounds (id integer primary key autoincrement, game_id integer not null,
               number integer not null check (number>=1), foreign key (game_id) references games (id));""",
        # INT for INTEGER, IF NOT EXISTS, /* */ comments, another order of constraints
        """CREATE TABLE IF NOT EXISTS GAMES (ID INTEGER PRIMARY KEY, TOKEN VARCHAR(40),
               WRONG INT DEFAULT 0 NOT NULL);
           CREATE UNIQUE INDEX IDX_TOKEN ON GAMES (TOKEN);
           CREATE TABLE ROUNDS (ID INTEGER PRIMARY KEY AUTOINCREMENT, /* the game */
               GAME_ID INTEGER REFERENCES GAMES(ID) NOT NULL, NUMBER INT CHECK (NUMBER >= 1) NOT NULL)""",
    ],
    ids=["quoting, case, a foreign key's place", "types, IF NOT EXISTS, a check's place"],
)
def test_the_same_schema_written_otherwise_has_the_same_shape(script):
    assert shape_of(script) == shape_of(BASE)


@pytest.mark.parametrize(
    "change, to, aspects",
    [
        (
            'UNIQUE INDEX "idx_token" ON "games" ("token")',
            'INDEX "idx_token" ON "games" ("token") WHERE 0',
            {"idx_token": ["unique", "rows"]},
        ),
        ('"wrong" INTEGER NOT NULL', '"wrong" INTEGER NOT NULL CHECK ("wrong" < 0)', {"games": ["rules"]}),
        ('"number" >= 1', '"number" >= 0', {"rounds": ["rules"]}),
        ("AUTOINCREMENT", "", {"rounds": ["rules"]}),
        # the share links compared without case: the column, and its index with it
        ('"token" TEXT', '"token" TEXT COLLATE NOCASE', {"games": ["rules"], "idx_token": ["columns"]}),
        ('"token" TEXT', '"token" TEXT UNIQUE ON CONFLICT REPLACE', {"games": ["keys", "rules"]}),
        ('"games"("id")', '"games"("id") DEFERRABLE INITIALLY DEFERRED', {"rounds": ["rules"]}),
        ('"games"("id")', '"games"("id") ON DELETE CASCADE', {"rounds": ["links"]}),
        ("DEFAULT 0", "DEFAULT 1", {"games": ["columns"]}),
        ('"token" TEXT', '"token" BLOB', {"games": ["columns"]}),
        ('"wrong" INTEGER NOT NULL', '"wrong" INTEGER', {"games": ["columns"]}),
        ("DEFAULT 0);\nCREATE UNIQUE", "DEFAULT 0) STRICT;\nCREATE UNIQUE", {"games": ["kind"]}),
    ],
)
def test_a_schema_that_does_otherwise_differs_in_that_aspect(change, to, aspects):
    script = BASE.replace(change, to, 1)
    assert script != BASE
    expected, found = shape_of(BASE), shape_of(script)
    differs = {name: shape.differences(expected[kind, name], found[kind, name]) for kind, name in expected}
    assert {name: what for name, what in differs.items() if what} == aspects


def test_tokens_fold_names_and_keep_strings():
    assert shape.tokens("""SELECT [Ab], "C""d", `e`, 'Fg''h', x'0A', 1.5E+3 -- gone""") == [
        ("name", "select", False),
        ("name", "ab", True),
        ("op", ",", False),
        ("name", 'c"d', True),
        ("op", ",", False),
        ("name", "e", True),
        ("op", ",", False),
        ("string", "Fg'h", False),
        ("op", ",", False),
        ("blob", "0a", False),
        ("op", ",", False),
        ("number", "1.5e+3", False),
    ]
