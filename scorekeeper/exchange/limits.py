"""How much an import may hold, in one place (issue 53: imports bounded while they are read).

A file is refused at the first thing past one of these, as it is read, with its line and
the limit: before the rest is read, so a crafted file never grows to many times its size in
memory (8 MB of ``[{},{},…]`` was 200 MB once parsed, 8 MB of CSV with 100,000 columns
349 MB). Each value is what a real family's file is far below, with the reason beside it;
docs/SECURITY.md ("Imports bounded while they are read") has the figures.
"""

from .. import scoring

# --- the uploads -------------------------------------------------------------------------

#: a history export: 8,000 real games (issue 42's benchmark) are 40 MB of JSON
MAX_IMPORT_SIZE = 64 * 1024 * 1024
#: a spreadsheet of past games: years of a family's games are a few hundred KB
MAX_PAST_GAMES_SIZE = 8 * 1024 * 1024

# --- a history export (JSON) ---------------------------------------------------------------

#: the largest real family history is thousands of games (8,000 in issue 42's benchmark); a
#: 64 MB export holds some 12,000 real games
MAX_GAMES = 20_000
#: every game's rounds together, in a history or a spreadsheet. The app writes a round of two
#: teams in 730 characters or more (every entry's fields), so a 64 MB export of its own holds
#: at most 92,000; a round written by hand can be 30 characters, and each is checked by the
#: engine (about 100 µs) and kept until it is written (100 bytes, or 3 KB for six entries
#: unlike any other): 100,000 of them are 10 s and at most 300 MB
MAX_HISTORY_ROUNDS = 100_000
#: rounds in a game: the engine's own bound on a round number (the next round's included, so a
#: game holds 999)
MAX_ROUNDS = scoring.MAX_ROUNDS * 10
#: the players a history lists, and its saved house rules
MAX_PLAYERS = 10_000
MAX_HOUSE_RULES = 1_000
#: the format's deepest value (a meld minimum by score) is 7 levels down
MAX_DEPTH = 12
#: characters in any one text of the file (a name is 40, a rule set's name 80)
MAX_TEXT = 10_000
#: characters of JSON one game may take: the longest game the engine scores, 999 rounds of
#: six teams (a round is numbered 1,000 at most, the next one's included) with every field
#: written, is 2.1 million. A game is decoded whole, so this bounds what one game can take
#: in memory while it is read: the densest JSON, ``[[],[],…]``, is 24 bytes a character
#: once decoded, 75 MB for the decoder's window (a quarter more than this)
MAX_GAME_TEXT = 2_500_000
#: members of the file's object a read that does not check them (``reading.read_history``)
#: keeps: the format has 6
MAX_MEMBERS = 32
#: characters of JSON any other one value may take (a player, a set of house rules, the
#: version…): a rule set is 0.5 to 1.3 KB, the longest text, escaped, 60,000
MAX_VALUE_TEXT = 100_000

# --- a spreadsheet of past games (CSV) -----------------------------------------------------

#: games in one spreadsheet: a weekly evening of four games for thirty years is 6,240
MAX_PAST_GAMES = 10_000
#: lines in one spreadsheet: 10,000 games of two teams and ten rounds, a line per team and
#: round (the sheet's lines), is 200,000
MAX_LINES = 200_000
#: lines of one game: six teams, a line per team and round, 100 rounds (the most a line's
#: ``round`` may say)
MAX_GAME_LINES = scoring.MAX_TEAMS * scoring.MAX_ROUNDS
#: columns: the app's own export writes about 40, a sheet of scores alone one a round
MAX_COLUMNS = 256
#: characters a line may take (a cell that holds a line break makes it several lines of the
#: file): 256 columns of numbers, names and days
MAX_LINE_TEXT = 16_384
#: characters in one cell: the longest a cell means, four players' names of 40 characters
#: and their "&"s, is 169
MAX_CELL = 1_000
