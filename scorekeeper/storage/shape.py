"""A database's schema as SQLite reads it, so that a backup's can be compared with the one
the migrations make (issue 53: a restore compared names only).

``shape(conn)`` describes every table, index, trigger and view but SQLite's own
(``sqlite_…``) by what it does. A table: its columns, keys and foreign keys as SQLite's
pragmas give them (``table_xinfo``, ``foreign_key_list``, ``index_list`` and
``index_xinfo`` of the keys it makes itself), and from its CREATE text only what no pragma
says (CHECK, COLLATE, ON CONFLICT, AUTOINCREMENT, a generated column's expression, a
deferred foreign key, WITHOUT ROWID, STRICT). An index: its table, whether it is unique,
its columns, and the rows it covers. A trigger or a view: its statement.

Texts are compared as SQL tokens, never as characters: whitespace, comments, the case of
keywords and names, and the quoting of a name (``"x"``, ``[x]``, `` `x` ``, ``x``) make no
difference, nor where a foreign key or a primary key is written, the words a column's type
is spelled with (only its affinity counts), nor ``IF NOT EXISTS``. So a family's database,
migrated a step at a time by earlier versions of sqlite-utils and SQLite (which rewrite a
table's text in ``transform()``, ``RENAME COLUMN`` and ``ADD COLUMN`` each their own way),
has the shape of one migrated now.

The tokenizer reads a character at a time (no pattern that could backtrack over a crafted
file's text).
"""

from __future__ import annotations

import string

NAME_START = frozenset(string.ascii_letters + "_")
NAME_PART = frozenset(string.ascii_letters + string.digits + "_$")
OPERATORS = ("->>", "->", "||", "<=", ">=", "==", "!=", "<>", "<<", ">>")
SAME_OPERATOR = {"==": "=", "<>": "!="}
FOLD = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)  # SQLite folds ASCII only
# a part of a table's body that is a constraint of the table, not a column
TABLE_CONSTRAINTS = frozenset({"constraint", "primary", "unique", "check", "foreign"})


def tokens(sql):
    """The SQL text as ``(kind, text, quoted)`` tokens, whitespace and comments left out.

    ``kind`` is ``name`` (a keyword or a name, quoted or not, its ASCII letters in lower
    case), ``string``, ``number``, ``blob`` or ``op``; ``quoted`` says a name was quoted
    (so it is a name even when it spells a keyword).
    """
    found, i, end = [], 0, len(sql)
    while i < end:
        char = sql[i]
        if char in " \t\n\r\f\v":
            i += 1
        elif sql.startswith("--", i):
            newline = sql.find("\n", i)
            i = end if newline < 0 else newline + 1
        elif sql.startswith("/*", i):
            close = sql.find("*/", i + 2)
            i = end if close < 0 else close + 2
        elif char in "'\"`[":
            text, i = _quoted(sql, i)
            found.append(("string", text, False) if char == "'" else ("name", text.translate(FOLD), True))
        elif char in "xX" and sql.startswith("'", i + 1):
            text, i = _quoted(sql, i + 1)
            found.append(("blob", text.translate(FOLD), False))
        elif char.isdigit() or (char == "." and sql[i + 1 : i + 2].isdigit()):
            start = i
            while i < end and (sql[i].isalnum() or sql[i] in "._" or (sql[i] in "+-" and sql[i - 1] in "eE")):
                i += 1
            found.append(("number", sql[start:i].translate(FOLD), False))
        elif char in NAME_START or ord(char) > 127:
            start = i
            while i < end and (sql[i] in NAME_PART or ord(sql[i]) > 127):
                i += 1
            found.append(("name", sql[start:i].translate(FOLD), False))
        else:
            operator = next((op for op in OPERATORS if sql.startswith(op, i)), char)
            found.append(("op", SAME_OPERATOR.get(operator, operator), False))
            i += len(operator)
    return found


def _quoted(sql, start):
    """(the text between the quote at ``start`` and its closing one, where reading goes
    on); a quote written twice inside stands for one. An unclosed one runs to the end."""
    opening = sql[start]
    closing = "]" if opening == "[" else opening
    parts, i = [], start + 1
    while True:
        at = sql.find(closing, i)
        if at < 0:
            parts.append(sql[i:])
            return "".join(parts), len(sql)
        parts.append(sql[i:at])
        if closing != "]" and sql.startswith(closing, at + 1):
            parts.append(closing)
            i = at + 2
            continue
        return "".join(parts), at + 1


def said(found):
    """Tokens as one comparable text: what SQLite would read the same reads the same."""
    return " ".join(f"{kind}:{text}" for kind, text, _ in found)


def _word(token):
    """A keyword's text (a name that was not quoted), else None."""
    kind, text, quoted = token
    return text if kind == "name" and not quoted else None


def _is(found, i, op):
    return i < len(found) and found[i][0] == "op" and found[i][1] == op


def _closing(found, i):
    """Where reading goes on after the parenthesis opened at ``i`` is closed."""
    depth = 0
    while i < len(found):
        if _is(found, i, "("):
            depth += 1
        elif _is(found, i, ")"):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _parts(found):
    """The tokens split at commas outside parentheses."""
    parts, current, depth = [], [], 0
    for token in found:
        if token[0] == "op" and token[1] == "," and depth == 0:
            parts.append(current)
            current = []
            continue
        if token[0] == "op":
            depth += {"(": 1, ")": -1}.get(token[1], 0)
        current.append(token)
    parts.append(current)
    return [part for part in parts if part]


def _body(found):
    """(the tokens before the first parenthesis, those inside it, those after it)."""
    opening = next((i for i in range(len(found)) if _is(found, i, "(")), None)
    if opening is None:
        return found, [], []
    closing = _closing(found, opening)
    return found[:opening], found[opening + 1 : closing - 1], found[closing:]


def _clauses(part):
    """What a column's or a table constraint's tokens say that no pragma does."""
    clauses, i = [], 0
    while i < len(part):
        word = _word(part[i])
        following = _word(part[i + 1]) if i + 1 < len(part) else None
        if word in ("check", "as") and _is(part, i + 1, "("):  # a CHECK; a generated column
            after = _closing(part, i + 1)
            clause = f"{word} {said(part[i + 2 : after - 1])}"
            if word == "as":  # kept on the disk, or worked out when read (the default)
                stored = after < len(part) and _word(part[after]) == "stored"
                clause += " stored" if stored else " virtual"
                after += after < len(part) and _word(part[after]) in ("stored", "virtual")
            clauses.append(clause)
            i = after
        elif word == "collate" and i + 1 < len(part):
            clauses.append(f"collate {part[i + 1][1]}")
            i += 2
        elif word == "on" and following == "conflict" and i + 2 < len(part):
            clauses.append(f"on conflict {part[i + 2][1]}")
            i += 3
        elif word == "autoincrement":
            clauses.append(word)
            i += 1
        elif word == "deferrable" and (i == 0 or _word(part[i - 1]) != "not"):
            # DEFERRABLE INITIALLY DEFERRED is the one that changes anything
            if following == "initially" and i + 2 < len(part) and _word(part[i + 2]) == "deferred":
                clauses.append("deferred")
            i += 1
        elif _is(part, i, "("):  # a default, a type's size, a key's or a reference's columns
            i = _closing(part, i)
        else:
            i += 1
    return clauses


def _table_text(sql):
    """What a table's CREATE text says beyond the pragmas: {"kind": …, "rules": […]}."""
    found = tokens(sql or "")
    head, body, tail = _body(found)
    words = {_word(token) for token in head[:-1]}  # the last word before the body is the name
    if "virtual" in words or not body:  # a virtual table (its module and arguments): all of it
        return {"kind": said(found), "rules": []}
    rules = []
    for part in _parts(body):
        first = _word(part[0])
        owner = "" if first in TABLE_CONSTRAINTS else part[0][1]
        rules += [f"{owner}: {clause}" for clause in _clauses(part if owner == "" else part[1:])]
    return {"kind": said(tail), "rules": sorted(rules)}


def affinity(declared):
    """The column affinity SQLite gives a declared type (its rules, in their order)."""
    upper = (declared or "").upper()
    if "INT" in upper:
        return "integer"
    if any(part in upper for part in ("CHAR", "CLOB", "TEXT")):
        return "text"
    if "BLOB" in upper or not upper:
        return "blob"
    if any(part in upper for part in ("REAL", "FLOA", "DOUB")):
        return "real"
    return "numeric"


def _quote(name):
    return '"' + name.replace('"', '""') + '"'


def _index_columns(conn, name):
    """An index's columns as ``index_xinfo`` gives them: (name, descending, collation,
    key or extra), an expression's name None."""
    rows = conn.execute(f"PRAGMA index_xinfo({_quote(name)})").fetchall()
    return [
        ((column or "").translate(FOLD) or None, desc, (coll or "").translate(FOLD), key)
        for _, _, column, desc, coll, key in rows
    ]


def _table(conn, name, sql):
    columns = [
        (column.translate(FOLD), affinity(declared), notnull, said(tokens(default or "")), pk, hidden)
        for _, column, declared, notnull, default, pk, hidden in conn.execute(
            f"PRAGMA table_xinfo({_quote(name)})"
        )
    ]
    links = {}
    for link, _, parent, column, to, on_update, on_delete, match in conn.execute(
        f"PRAGMA foreign_key_list({_quote(name)})"
    ):
        pair = (column.translate(FOLD), (to or "").translate(FOLD))  # to: None for the parent's key
        links.setdefault(link, []).append((parent.translate(FOLD), *pair, on_update, on_delete, match))
    # the keys SQLite makes for PRIMARY KEY and UNIQUE (its own indexes, named by their place)
    keys = sorted(
        (origin, unique, partial, _index_columns(conn, index))
        for _, index, unique, origin, partial in conn.execute(f"PRAGMA index_list({_quote(name)})")
        if origin != "c"
    )
    text = _table_text(sql)
    return {
        "columns": columns,
        "links": sorted(sorted(rows) for rows in links.values()),
        "keys": keys,
        "rules": text["rules"],
        "kind": text["kind"],
    }


def _index(conn, name, table, sql):
    listed = {
        index: (unique, origin, partial)
        for _, index, unique, origin, partial in conn.execute(f"PRAGMA index_list({_quote(table)})")
    }
    unique, origin, partial = listed.get(name, (None, None, None))
    columns = _index_columns(conn, name)
    _, inside, after = _body(tokens(sql or ""))
    # an expression's text (a plain column's name, order and collation are in index_xinfo)
    expressions = [
        said(part) for part, (column, *_) in zip(_parts(inside), columns, strict=False) if column is None
    ]
    return {
        "table": table.translate(FOLD),
        "unique": (unique, origin),
        "columns": (columns, expressions),
        "rows": (partial, said(after)),
    }


def shape(conn):
    """{(type, name): what it is} for every table, index, view and trigger of ``conn``'s
    main database but SQLite's own; names in lower case, as SQLite compares them."""
    objects = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).fetchall()
    described = {}
    for kind, name, table, sql in objects:
        if kind == "table":
            what = _table(conn, name, sql)
        elif kind == "index":
            what = _index(conn, name, table, sql)
        else:  # a trigger, a view: its statement as SQLite reads it
            what = {"statement": said(tokens(sql or ""))}
        described[(kind, name.translate(FOLD))] = what
    return described


def differences(expected, found):
    """The aspects (keys of ``shape``'s descriptions) in which ``found`` differs, in order."""
    return [aspect for aspect in expected if expected[aspect] != found.get(aspect)]
