"""Paper: a game's score sheet and the PDF of any sheet (``sheets``), blank sheets
(``blank_sheets``), and sheets printed ahead, after a change, so that "Print" finds them
made (``ahead``)."""
