"""Storage: the SQLite file and what keeps it whole: one kept connection per thread and
``transaction()`` (``db``), the schema's append-only migrations (``migrations``), the
storage's faults told plainly (``faults``), and files only the family can read (``private``)."""
