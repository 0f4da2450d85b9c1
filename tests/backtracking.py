"""Regular expressions that backtrack without bound, found by counting a matcher's steps.

Python's ``re`` holds the interpreter lock for a whole match, so a pattern whose work grows
with the square of its input (or faster) lets one request stop every other (issue 53). This
module finds such patterns the way they fail: it feeds each pattern adversarial input of two
lengths and compares the work done, **counted in steps, not seconds** (the same count on any
machine, however busy).

- ``patterns(package)`` collects every regular expression of the package: each ``re.*``
  call's literal pattern (and its flags) read from the source, each compiled pattern kept in
  a module's globals, and how each is used (``fullmatch``, ``match``, ``search``, or
  ``split``/``sub``/``findall``, which search again after each match); a pattern it cannot
  read is reported, never skipped.
- ``Matcher`` runs a pattern as ``re``'s engine (sre) does, a backtracking matcher over the
  parse tree ``re`` itself makes (``re._parser``), and counts its steps: a character tested,
  a repetition's count tried again, a branch tried, a start position tried.
- ``worst(pattern, flags, mode)`` builds inputs of the classic shape that makes a
  backtracking engine go quadratic or worse, ``prefix + pump * n + suffix``: the prefixes
  that lead to each repetition in the pattern, the pumps that repetition (or the whole
  pattern) consumes, and a suffix of each character the pattern names or commonly refuses.
  It counts the steps at n, 2n (and 4n): linear work at most doubles, quadratic work
  nearly quadruples; it returns the input whose work grew most, and how much.

It is a tester, not a proof: a pattern whose blow-up needs an input of another shape is not
found. It found every pattern issue 53 mended (``tests/unit/test_backtracking.py`` keeps
them) where regexploit 1.0.0 found one of the five (it reads no pattern as ``search`` uses
it, and stops at Python 3.11's possessive quantifiers).
"""

from __future__ import annotations

import ast
import importlib
import itertools
import pkgutil
import re
from dataclasses import dataclass
from pathlib import Path
from re import _constants as C  # the parser re itself uses: the same tree
from re import _parser as P

#: how a pattern is used: at the start only, the whole string, anywhere, or again and again
FULLMATCH, MATCH, SEARCH, SCAN = "fullmatch", "match", "search", "scan"
_MODES = {
    "fullmatch": FULLMATCH,
    "match": MATCH,
    "search": SEARCH,
    "split": SCAN,
    "sub": SCAN,
    "subn": SCAN,
    "findall": SCAN,
    "finditer": SCAN,
}
_FLAGS_AT = {"compile": 1, "match": 2, "search": 2, "fullmatch": 2, "findall": 2, "finditer": 2}
_FLAGS_AT |= {"split": 3, "sub": 4, "subn": 4}

#: the lengths compared, in pumps; work that grows more than GROWTH times from each to the
#: next is worse than linear (linear work at most doubles: a + 2bn <= 2(a + bn)); the third
#: is tried only when the first two grew so (a bounded repetition's work stops growing)
LENGTHS = (20, 40, 80)
GROWTH = 2.5
#: steps at the first length past which a pattern is reported whatever its growth
#: (exponential patterns never reach the next one)
MOST_STEPS = 200_000
#: characters tried besides the pattern's own: letters, digits, spaces, the usual separators
_USUAL = "a0 \n!,.;:-_[]<>&+/xé"
#: characters tried after the pumps besides the pattern's own: what a pattern often refuses
_KILLERS = "a0 \n!"


class TooMuch(Exception):
    """The matcher went past its budget of steps."""


class Unreadable(ValueError):
    """A construct the matcher does not run (a back reference): write the pattern without it."""


# --- the matcher ----------------------------------------------------------------------------------


def _is_word(ch, ascii_only):
    return ch == "_" or ((ch.isascii() if ascii_only else True) and ch.isalnum())


def _category(cat, ch, ascii_only):
    if cat in (C.CATEGORY_DIGIT, C.CATEGORY_NOT_DIGIT):
        yes = ch in "0123456789" if ascii_only else ch.isdecimal()
        return yes if cat is C.CATEGORY_DIGIT else not yes
    if cat in (C.CATEGORY_SPACE, C.CATEGORY_NOT_SPACE):
        yes = ch in " \t\n\r\f\v" if ascii_only else ch.isspace()
        return yes if cat is C.CATEGORY_SPACE else not yes
    if cat in (C.CATEGORY_WORD, C.CATEGORY_NOT_WORD):
        yes = _is_word(ch, ascii_only)
        return yes if cat is C.CATEGORY_WORD else not yes
    if cat in (C.CATEGORY_LINEBREAK, C.CATEGORY_NOT_LINEBREAK):
        yes = ch == "\n"
        return yes if cat is C.CATEGORY_LINEBREAK else not yes
    raise Unreadable(f"the category {cat}")


def _in_class(items, ch, flags):
    ascii_only = bool(flags & re.ASCII)
    negate = False
    found = False
    chars = {ch, ch.lower(), ch.upper()} if flags & re.IGNORECASE else {ch}
    for op, av in items:
        if op is C.NEGATE:
            negate = True
        elif op is C.LITERAL:
            found = found or chr(av) in chars
        elif op is C.RANGE:
            found = found or any(av[0] <= ord(c) <= av[1] for c in chars)
        elif op is C.CATEGORY:
            found = found or _category(av, ch, ascii_only)
        else:
            raise Unreadable(f"{op} in a character class")
    return found != negate


def _char_ok(op, av, ch, flags):
    """Whether one character matches a one-character item."""
    if op is C.LITERAL:
        return chr(av) == ch or (bool(flags & re.IGNORECASE) and chr(av).lower() == ch.lower())
    if op is C.NOT_LITERAL:
        return not _char_ok(C.LITERAL, av, ch, flags)
    if op is C.ANY:
        return ch != "\n" or bool(flags & re.DOTALL)
    if op is C.IN:
        return _in_class(av, ch, flags)
    raise Unreadable(str(op))


_ONE_CHAR = (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN)
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT)


def _plain(tree):
    """The parser's tree as lists, each lookbehind with its width (read once, not per step)."""
    items = []
    for op, av in tree:
        if op in _REPEATS:
            av = (av[0], av[1], _plain(av[2]))
        elif op is C.SUBPATTERN:
            av = (av[0], av[1], av[2], _plain(av[3]))
        elif op is C.BRANCH:
            av = (None, [_plain(alternative) for alternative in av[1]])
        elif op is C.ATOMIC_GROUP:
            av = _plain(av)
        elif op in (C.ASSERT, C.ASSERT_NOT):
            av = (av[0], _plain(av[1]), av[1].getwidth()[0])
        items.append((op, av))
    return items


class Matcher:
    """A pattern run as sre runs it (backtracking, leftmost first), counting its steps."""

    def __init__(self, pattern, flags=0):
        if isinstance(pattern, re.Pattern):
            pattern, flags = pattern.pattern, pattern.flags
        self.pattern = pattern
        self.tree = P.parse(pattern, flags)
        self.flags = self.tree.state.flags
        self.items = _plain(self.tree)
        self.steps = 0
        self.budget = None
        self.text = ""

    def count(self, text, mode, budget=None):
        """The steps a ``mode`` use of the pattern takes on ``text`` (TooMuch past ``budget``)."""
        self.steps, self.budget, self.text = 0, budget, text
        items, self.found = self.items, False
        if mode == FULLMATCH:
            self.found = any(end == len(text) for end in self._seq(items, 0, 0, self.flags))
        elif mode == MATCH:
            self.found = next(self._seq(items, 0, 0, self.flags), None) is not None
        else:
            start = 0
            while start <= len(text):
                found = None
                for begin in range(start, len(text) + 1):
                    self._step()
                    end = next(self._seq(items, 0, begin, self.flags), None)
                    if end is not None:
                        found = (begin, end)
                        break
                if found is None:
                    break
                self.found = True
                if mode == SEARCH:
                    break
                start = found[1] if found[1] > found[0] else found[1] + 1
        return self.steps

    def matches(self, text, mode):
        """Whether a ``mode`` use of the pattern finds a match in ``text`` (as ``re`` would)."""
        self.count(text, mode)
        return self.found

    def _step(self, n=1):
        self.steps += n
        if self.budget is not None and self.steps > self.budget:
            raise TooMuch

    def _seq(self, items, k, i, flags):
        """The ends of ``items[k:]`` matched from ``i``, in the order sre tries them."""
        if k == len(items):
            yield i
            return
        op, av = items[k]
        for j in self._item(op, av, i, flags):
            yield from self._seq(items, k + 1, j, flags)

    def _item(self, op, av, i, flags):
        self._step()
        text = self.text
        if op in _ONE_CHAR:
            if i < len(text) and _char_ok(op, av, text[i], flags):
                yield i + 1
        elif op in _REPEATS:
            yield from self._repeat(op, av, i, flags)
        elif op is C.SUBPATTERN:
            _group, add, remove, body = av
            yield from self._seq(body, 0, i, (flags | add) & ~remove)
        elif op is C.BRANCH:
            for alternative in av[1]:
                self._step()
                yield from self._seq(alternative, 0, i, flags)
        elif op is C.ATOMIC_GROUP:
            end = next(self._seq(av, 0, i, flags), None)
            if end is not None:
                yield end
        elif op is C.AT:
            if self._at(av, i, flags):
                yield i
        elif op in (C.ASSERT, C.ASSERT_NOT):
            direction, body, width = av
            start = i - width if direction < 0 else i
            holds = start >= 0 and next(self._seq(body, 0, start, flags), None) is not None
            if holds == (op is C.ASSERT):
                yield i
        else:
            raise Unreadable(f"{op} (a back reference or a conditional group)")

    def _repeat(self, op, av, i, flags):
        low, high, body = av
        if op is C.POSSESSIVE_REPEAT:
            end = next(self._repeat(C.MAX_REPEAT, av, i, flags), None)
            if end is not None:
                yield end
            return
        greedy = op is C.MAX_REPEAT
        if len(body) == 1 and body[0][0] in _ONE_CHAR:  # sre's REPEAT_ONE: no recursion
            yield from self._repeat_one(body[0], low, high, i, flags, greedy)
        else:
            yield from self._repeat_body(body, low, high, 0, i, flags, greedy)

    def _repeat_one(self, item, low, high, i, flags, greedy):
        op, av = item
        text = self.text
        if greedy:
            end = i
            while end - i < high and end < len(text):
                self._step()
                if not _char_ok(op, av, text[end], flags):
                    break
                end += 1
            for j in range(end, i + low - 1, -1):
                self._step()
                yield j
            return
        j = i
        while True:
            if j - i >= low:
                self._step()
                yield j
            if j - i >= high or j >= len(text):
                return
            self._step()
            if not _char_ok(op, av, text[j], flags):
                return
            j += 1

    def _repeat_body(self, body, low, high, count, i, flags, greedy):
        self._step()
        if not greedy and count >= low:
            yield i
        if count < high:
            for j in self._seq(body, 0, i, flags):
                if j == i and count >= low:
                    continue  # sre ends a repetition at an empty iteration
                yield from self._repeat_body(body, low, high, count + 1, j, flags, greedy)
        if greedy and count >= low:
            yield i

    def _at(self, code, i, flags):
        text = self.text
        if code is C.AT_BEGINNING:
            return i == 0 or (bool(flags & re.MULTILINE) and text[i - 1] == "\n")
        if code is C.AT_BEGINNING_STRING:
            return i == 0
        if code is C.AT_END:
            if flags & re.MULTILINE and i < len(text) and text[i] == "\n":
                return True
            return i == len(text) or (i == len(text) - 1 and text[i] == "\n")
        if code is C.AT_END_STRING:
            return i == len(text)
        if code in (C.AT_BOUNDARY, C.AT_NON_BOUNDARY):
            ascii_only = bool(flags & re.ASCII)
            before = i > 0 and _is_word(text[i - 1], ascii_only)
            after = i < len(text) and _is_word(text[i], ascii_only)
            return (before != after) == (code is C.AT_BOUNDARY)
        raise Unreadable(str(code))


# --- adversarial inputs ---------------------------------------------------------------------------


def _representative(op, av):
    """A character that matches a one-character item (None when none is at hand)."""
    if op is C.LITERAL:
        return chr(av)
    if op is C.NOT_LITERAL:
        return "a" if chr(av) != "a" else "b"
    if op is C.ANY:
        return "a"
    for inner, value in av:  # IN
        if inner is C.NEGATE:
            return next((c for c in _USUAL if _in_class(av, c, 0)), None)
        if inner is C.LITERAL:
            return chr(value)
        if inner is C.RANGE:
            return chr(value[0])
        if inner is C.CATEGORY:
            return next((c for c in _USUAL if _category(value, c, False)), None)
    return None


def _letters(tree):
    """Every character the pattern names, and one of each class and category it has."""
    found = set()

    def walk(items):
        for op, av in items:
            if op in _ONE_CHAR:
                char = _representative(op, av)
                if char:
                    found.add(char)
                if op is C.IN:
                    found.update(chr(v) for o, v in av if o is C.LITERAL)
                    found.update(chr(v[1]) for o, v in av if o is C.RANGE)
            elif op in _REPEATS:
                walk(av[2])
            elif op is C.SUBPATTERN:
                walk(av[3])
            elif op is C.BRANCH:
                for alternative in av[1]:
                    walk(alternative)
            elif op is C.ATOMIC_GROUP:
                walk(av)
            elif op in (C.ASSERT, C.ASSERT_NOT):
                walk(av[1])

    walk(tree)
    return found


class _Walk:
    """Samples of what a pattern matches, and the text that leads to each repetition in it."""

    def __init__(self):
        self.leads = {""}  # the text before each repetition
        self.bodies = set()  # a sample of each repetition's body

    def sample(self, items, before):
        text = ""
        for op, av in items:
            if op in _ONE_CHAR:
                text += _representative(op, av) or ""
            elif op in _REPEATS:
                low, _high, body = av
                self.leads.add(before + text)
                once = self.sample(body, before + text)
                self.bodies.add(once)
                text += once * max(low, 1)
            elif op is C.SUBPATTERN:
                text += self.sample(av[3], before + text)
            elif op is C.BRANCH:
                samples = [self.sample(alternative, before + text) for alternative in av[1]]
                text += samples[0]
            elif op is C.ATOMIC_GROUP:
                text += self.sample(av, before + text)
        return text


def _firsts(items, letters, flags):
    """The letters that can start a match of ``items``."""
    found = set()
    for op, av in items:
        if op in _ONE_CHAR:
            return found | {c for c in letters if _char_ok(op, av, c, flags)}
        if op in _REPEATS:
            found |= _firsts(av[2], letters, flags)
            if av[0] > 0:
                return found
        elif op is C.SUBPATTERN:
            found |= _firsts(av[3], letters, (flags | av[1]) & ~av[2])
            if av[3].getwidth()[0] > 0:
                return found
        elif op is C.BRANCH:
            for alternative in av[1]:
                found |= _firsts(alternative, letters, flags)
            return found
        elif op is C.ATOMIC_GROUP:
            found |= _firsts(av, letters, flags)
            if av.getwidth()[0] > 0:
                return found
    return found


def _pumps(tree, letters, flags, walk):
    """What each repetition consumes, one character of it or a sample of its body."""
    pumps = set(walk.bodies)

    def visit(items, flags):
        for op, av in items:
            if op in _REPEATS:
                pumps.update(_firsts(av[2], letters, flags))
                visit(av[2], flags)
            elif op is C.SUBPATTERN:
                visit(av[3], (flags | av[1]) & ~av[2])
            elif op is C.BRANCH:
                for alternative in av[1]:
                    visit(alternative, flags)
            elif op is C.ATOMIC_GROUP:
                visit(av, flags)

    visit(tree, flags)
    return {p for p in pumps if p}


@dataclass
class Worst:
    """The input family whose work grew most: ``prefix + pump * n + suffix``."""

    prefix: str
    pump: str
    suffix: str
    steps: list  # at each of LENGTHS pumps while it grew faster than GROWTH (None: past the budget)

    @property
    def growth(self):
        """How the work grew from each length to the next, the least of it (inf: past the budget).

        The least: a bounded repetition's work (``{0,29}``) may grow fast up to its bound
        and then not at all; a quadratic pattern's grows as fast at each length."""
        if None in self.steps:
            return float("inf")
        return min((b / max(a, 1) for a, b in itertools.pairwise(self.steps)), default=1.0)

    def text(self, n):
        return self.prefix + self.pump * n + self.suffix

    def __str__(self):
        counts = ", ".join(
            f"{'past its budget' if steps is None else format(steps, ',') + ' steps'} at n={n}"
            for n, steps in zip(LENGTHS, self.steps)
        )
        return (
            f"{self.prefix!r} + {self.pump!r} * n + {self.suffix!r}: {counts} "
            f"(×{self.growth:.1f} each time n doubles; linear work at most doubles)"
        )


def _grows(matcher, prefix, pump, suffix, mode):
    """The steps at each length, going on to the next only while they grew faster than linear."""
    steps = []
    for n in LENGTHS:
        budget = MOST_STEPS if not steps else GROWTH * steps[-1] + 50
        try:
            steps.append(matcher.count(prefix + pump * n + suffix, mode, budget=budget))
        except TooMuch:
            steps.append(None)
            break
        if len(steps) > 1 and steps[-1] <= GROWTH * steps[-2]:
            break
    return Worst(prefix, pump, suffix, steps)


def worst(pattern, flags=0, mode=SEARCH):
    """The adversarial input on which the pattern's work grew most as its input doubled.

    :raises Unreadable: the pattern holds what the matcher does not run.
    """
    matcher = Matcher(pattern, flags)
    letters = _letters(matcher.tree) | set(_USUAL)
    walk = _Walk()
    whole = walk.sample(list(matcher.tree), "")
    pumps = _pumps(matcher.tree, letters, matcher.flags, walk) | ({whole} if whole else set())
    suffixes = sorted(_letters(matcher.tree) | set(_KILLERS)) + ["", "\n!"]
    found = None
    for prefix in sorted(walk.leads):
        for pump in sorted(pumps):
            for suffix in suffixes:
                candidate = _grows(matcher, prefix, pump, suffix, mode)
                if found is None or candidate.growth > found.growth:
                    found = candidate
                if found.growth > GROWTH:
                    return found
    return found


def backtracks(pattern, flags=0, mode=SEARCH):
    """The input that shows the pattern's work growing faster than its input, or None."""
    found = worst(pattern, flags, mode)
    return found if found is not None and found.growth > GROWTH else None


# --- every pattern of the package -----------------------------------------------------------------


@dataclass
class Found:
    """A regular expression in the package: where it is, what it is, how it is used."""

    where: str  # path:line
    pattern: str | None
    flags: int
    modes: set
    problem: str | None = None  # why it could not be read

    def __str__(self):
        return f"{self.where} {self.pattern!r}"


def _flags(node):
    if node is None:
        return 0
    try:
        return eval(compile(ast.Expression(node), "<flags>", "eval"), {"re": re})  # re.I | re.S only
    except Exception:
        return None


def _is_re(node):
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "re"


def _uses(trees):
    """For each name, how the code calls it: ``NAME.fullmatch(…)`` -> {"fullmatch"}."""
    uses = {}
    for tree in trees:
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.attr in _MODES
            ):
                uses.setdefault(node.func.value.id, set()).add(_MODES[node.func.attr])
    return uses


def patterns(package):
    """Every regular expression in ``package``'s source (a module), as ``Found``s in file order."""
    root = Path(package.__file__).parent
    files = sorted(root.rglob("*.py"))
    trees = {path: ast.parse(path.read_text(encoding="utf-8"), str(path)) for path in files}
    uses = _uses(trees.values())
    found = []
    for path, tree in trees.items():
        module = ".".join((package.__name__, *path.relative_to(root).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        where = f"{path.relative_to(root.parent)}"
        names = {}  # a compiled pattern's line -> the name it is kept as
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                names[node.value.lineno] = node.targets[0].id
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == "re":
                found.append(
                    Found(f"{where}:{node.lineno}", None, 0, set(), "imports from re: call re.* instead")
                )
            if not isinstance(node, ast.Call):
                continue
            regexp = isinstance(node.func, ast.Name) and node.func.id == "Regexp"
            if not (regexp or (_is_re(node.func) and node.func.attr in _MODES | {"compile": None})):
                continue
            call = "match" if regexp else node.func.attr
            at = f"{where}:{node.lineno}"
            first = node.args[0] if node.args else None
            position = 1 if regexp else _FLAGS_AT.get(call)
            flag_node = node.args[position] if position is not None and len(node.args) > position else None
            flag_node = next((k.value for k in node.keywords if k.arg == "flags"), flag_node)
            flags = _flags(flag_node)
            if call == "compile":
                name = names.get(node.lineno)
                kept = getattr(importlib.import_module(module), name, None) if name else None
                if isinstance(kept, re.Pattern):
                    modes = uses.get(name) or {SCAN}  # passed elsewhere: the strictest use
                    found.append(Found(at, kept.pattern, kept.flags, modes))
                    continue
                modes = {SCAN}
            else:
                modes = {_MODES[call]}
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and flags is not None:
                found.append(Found(at, first.value, flags, modes))
            else:
                found.append(
                    Found(at, None, 0, modes, "not a literal pattern: write it as one (or compile it)")
                )
    return found


def compiled_globals(package):
    """Every compiled pattern kept in a module's globals: (module, name, pattern)."""
    kept = []
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern):
                kept.append((info.name, name, value))
    return kept
