"""Which errors are faults of the storage, and what they say (``scorekeeper.storage.faults``)."""

import errno
import sqlite3

import pytest

from scorekeeper.storage import faults

pytestmark = pytest.mark.timeout(30)


def sqlite_error(path, sql="SELECT 1"):
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True)
        conn.execute(sql)
    except sqlite3.Error as error:
        return error
    raise AssertionError("no error")


def test_sqlite_errors_are_told_by_their_code_and_the_file(tmp_path):
    missing = tmp_path / "gone.db"
    assert faults.fault_of(sqlite_error(missing), missing).kind == "missing"
    notes = tmp_path / "notes.db"
    notes.write_text("not a database " * 100)
    assert faults.fault_of(sqlite_error(notes, "SELECT * FROM sqlite_master"), notes).kind == "damaged"
    full = sqlite3.connect(":memory:")
    full.execute("PRAGMA max_page_count = 2")
    full.execute("CREATE TABLE t (x)")
    with pytest.raises(sqlite3.Error) as raised:
        full.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 50)
    fault = faults.fault_of(raised.value)
    assert (fault.kind, fault.status) == ("full", 507)
    # not the storage's fault: a mistake in the SQL, a broken constraint
    assert faults.fault_of(sqlite_error(":memory:", "SELEC 1")) is None
    roomy = sqlite3.connect(":memory:")
    roomy.execute("CREATE TABLE u (x UNIQUE)")
    with pytest.raises(sqlite3.IntegrityError) as raised:
        roomy.execute("INSERT INTO u VALUES (1), (1)")
    assert faults.fault_of(raised.value) is None


@pytest.mark.parametrize(
    "number, kind",
    [(errno.ENOSPC, "full"), (errno.EDQUOT, "full"), (errno.EROFS, "read-only"), (errno.EIO, "io")],
)
def test_os_errors_by_their_number(number, kind):
    fault = faults.fault_of(OSError(number, "boom"))
    assert fault.kind == kind and fault.status == (507 if kind == "full" else 503)


def test_other_os_errors_are_not_storage_faults():
    assert faults.fault_of(OSError(errno.ECONNRESET, "reset")) is None
    assert faults.fault_of(ValueError("x")) is None


def test_the_sentence_says_what_happened_what_was_not_done_and_what_to_do():
    said = faults.Fault("full").message("round 3 was not saved", "tap Save again")
    assert said == (
        "The computer that runs Scorekeeper has no room left on its disk: round 3 was not saved. "
        "Free some space on it, then tap Save again."
    )
    for kind in faults.PROBLEMS:
        assert faults.Fault(kind).message().endswith("try again.")


def test_sizes_read_as_a_person_reads_them_and_stay_on_one_line():
    assert faults.size_text(0) == "0\u00a0KB"
    assert faults.size_text(512 * 1024) == "512\u00a0KB"
    assert faults.size_text(int(3.4 * 2**20)) == "3.4\u00a0MB"
    assert faults.size_text(29 * 2**30) == "29\u00a0GB"
    assert faults.floor(2**40, 0.10, 200 * 2**20) == 200 * 2**20
    assert faults.floor(4 * 2**20, 0.10, 200 * 2**20) == 4 * 2**20 // 10
