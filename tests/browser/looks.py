"""What a person sees on a phone, measured in the page: no sideways scroll, every number
whole on one line, no error message where none is expected.

Each check runs on a page that has finished loading (the caller waited on it with
Playwright's expect, or a navigation): none of them reads a page that may be leaving.
"""

from playwright.sync_api import Error, expect

# Every number drawn in ``root`` (totals, scores, minimums, stats): on one line, inside its
# own box (no overlap with the next column), inside the screen.
# A number is a run of digits and separators with its sign, standing alone: not the
# digits inside a word or a link's token (…/s/Ab-53x…).
NUMBERS_JS = r"""(root) => {
  const bad = [], seen = [];
  const number = /(?<![\p{L}\p{N}_+\u2212-])[+\u2212-]?\d[\d,]*(?![\p{L}\p{N}_])/gu;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el.checkVisibility() || el.closest(".visually-hidden, script, style, title, desc")) continue;
    const svg = el.closest("svg");
    let box = svg || el;
    while (!svg && getComputedStyle(box).display === "inline") box = box.parentElement;
    const outer = box.getBoundingClientRect();
    // a table that scrolls sideways on its own: a number past the screen is reached by scrolling it
    let scroller = el.parentElement;
    while (scroller && !/(auto|scroll)/.test(getComputedStyle(scroller).overflowX))
      scroller = scroller.parentElement;
    for (const match of node.textContent.matchAll(number)) {
      let rects;
      if (svg) {  // a chart's label: the whole text, inside its drawing
        rects = [el.getBoundingClientRect()];
      } else {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        rects = [...range.getClientRects()].filter((r) => r.width > 0);
      }
      if (!rects.length) continue;
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      const left = Math.min(...rects.map((r) => r.left)), right = Math.max(...rects.map((r) => r.right));
      seen.push(match[0]);
      if (lines.size > 1) bad.push(`${match[0]} on ${lines.size} lines`);
      else if (left < outer.left - 0.5 || right > outer.right + 0.5)
        bad.push(`${match[0]} overflows its box (${left}-${right} in ${outer.left}-${outer.right})`);
      else if (!scroller && (right > innerWidth + 0.5 || left < -0.5))
        bad.push(`${match[0]} runs off the screen`);
    }
  }
  return {bad, seen};
}"""

# What a message about a mistake looks like: under a field, at the top of a form, a flash
ERRORS = ".error:visible, .error-summary:visible, .flash-error:visible"


def numbers_whole(locator):
    """Every number shown in ``locator`` (a region, or the page's body) on one line and in
    its box; returns the numbers seen."""
    found = locator.evaluate(NUMBERS_JS)
    assert not found["bad"], f"{locator.page.url}: {found['bad']}"
    return found["seen"]


# the page's width and the innermost element reaching furthest right (to name it when it
# is too wide)
FITS_JS = """() => {
  let widest = null, right = 0;
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect().right;
    if (r > right + 0.5) { right = r; widest = el; }
  }
  const name = widest ? `<${widest.tagName.toLowerCase()} class="${widest.className}"> ` +
    `right at ${Math.round(right)} px: ${(widest.textContent || "").trim().slice(0, 40)}` : "";
  return [document.documentElement.scrollWidth, window.innerWidth, name];
}"""


def fits_the_phone(page):
    """No sideways scroll."""
    scroll_width, inner_width, widest = page.evaluate(FITS_JS)
    assert scroll_width <= inner_width, (
        f"{page.url} scrolls sideways: {scroll_width} px in {inner_width}: {widest}"
    )


def no_error_shown(page):
    """No message about a mistake anywhere on the page (auto-waiting, so a page that is
    still being replaced is read once it stands)."""
    expect(page.locator(ERRORS)).to_have_count(0)


# Everything a person reads in ``root``, measured as drawn (issue 30):
# - a word is whole on one line: no line break inside it but after a hyphen, a dash or a
#   slash (a day in digits is one word all the same), unless the word alone is wider than
#   its box (a forty-letter name, a link's address), which must break somewhere;
# - nothing is cut off: not past the screen's edges, not past a box that hides its
#   overflow, not cut with an ellipsis, and no select's chosen option wider than its box;
# - no word runs out of its own box, where the next box is drawn over it, nor under the
#   outline another box draws around itself (issue 54: a sheet's "Final" under the
#   winner's box);
# - a table that scrolls sideways in its box has no need to: every word in the box's view,
#   none reached only by scrolling it (issue 54: a player's partnerships, "Run" cut at the
#   box's edge); a sheet of paper (``paper``) may, as a page wider than the phone;
# - no text under 12 px (but on a sheet of paper, whose sizes are the paper's), and no
#   chart label under 10 px;
# - a chart's labels apart, inside the drawing, and none said twice along one axis.
READABLE_JS = r"""(root, paper) => {
  const bad = [];
  const say = (what, text) => bad.push(`${what}: ${JSON.stringify(text.trim().slice(0, 40))}`);
  const scrolls = (el) => {
    for (let a = el.parentElement; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/(auto|scroll)/.test(s.overflowX)) return a;
    }
    return null;
  };
  const clipper = (el) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (/(auto|scroll)/.test(s.overflowX)) return null;
      if (/(hidden|clip)/.test(s.overflowX) || /(hidden|clip)/.test(s.overflowY)) return a;
    }
    return null;
  };
  const blockOf = (el) => {
    let box = el;
    while (box.parentElement && getComputedStyle(box).display.startsWith("inline")) box = box.parentElement;
    return box;
  };
  // the rings that outlines draw outside their boxes (a sheet's winner), over whatever is
  // there: [the outlined element, inside the ring, its outer edge] (a focused field's
  // ring comes and goes, and is left out)
  const inflate = (r, by) =>
    ({left: r.left - by, right: r.right + by, top: r.top - by, bottom: r.bottom + by});
  const rings = [];
  for (const el of root.querySelectorAll("*")) {
    const s = getComputedStyle(el), ring = s.outlineStyle === "none" ? 0 : parseFloat(s.outlineWidth);
    if (!ring || el === document.activeElement || !el.checkVisibility()) continue;
    const r = el.getBoundingClientRect(), offset = parseFloat(s.outlineOffset) || 0;
    rings.push([el, inflate(r, offset), inflate(r, offset + ring)]);
  }
  const under = (r, ring) => r.right > ring.left + 0.5 && r.left < ring.right - 0.5 &&
    r.bottom > ring.top + 0.5 && r.top < ring.bottom - 0.5;
  const within = (r, box) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
    r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let words = 0;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !el.checkVisibility({visibilityProperty: true})) continue;
    if (el.closest(".visually-hidden, script, style, title, desc, option, datalist, noscript")) continue;
    const svg = el.closest("svg");
    const style = getComputedStyle(el);
    if (svg) {
      const size = parseFloat(style.fontSize) * svg.getScreenCTM().a;
      if (size < 9.95) say(`a chart's label at ${size.toFixed(1)} px`, node.textContent);
      continue;
    }
    const size = parseFloat(style.fontSize);
    if (size < 11.95 && !paper) say(`text at ${size.toFixed(1)} px`, node.textContent);
    const box = blockOf(el), own = box.getBoundingClientRect(), width = own.width;
    const scroller = scrolls(el), clip = clipper(el);
    const edge = clip && clip.getBoundingClientRect();
    // what a box that scrolls sideways shows without being scrolled: inside its borders
    const view = scroller && !paper && scroller.getBoundingClientRect();
    const viewLeft = view && view.left + scroller.clientLeft;
    const viewRight = view && viewLeft + scroller.clientWidth;
    // a day written in digits (2019-12-24, 24/12/2019) is one word: a number, never broken
    const WORDS = /\d{4}-\d\d-\d\d|\d\d?\/\d\d?\/\d{4}|[^\s\-\u2010-\u2015\/]+/gu;
    for (const match of node.textContent.matchAll(WORDS)) {
      words++;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0.5);
      if (!rects.length) continue;
      const wide = rects.reduce((sum, r) => sum + r.width, 0);
      const lines = new Set(rects.map((r) => Math.round(r.bottom)));
      if (lines.size > 1 && wide <= width + 0.5) say(`split over ${lines.size} lines`, match[0]);
      const left = Math.min(...rects.map((r) => r.left)), right = Math.max(...rects.map((r) => r.right));
      if (!scroller && (right > innerWidth + 0.5 || left < -0.5)) say("off the screen", match[0]);
      if (edge && (right > edge.right + 0.5 || left < edge.left - 0.5))
        say("cut at its box's edge", match[0]);
      if (view && (right > viewRight + 0.5 || left < viewLeft - 0.5))
        say("past the edge of the box it scrolls in", match[0]);
      // (by a pixel or more: a figure a fraction wider than its grid cell touches nothing)
      if (right > own.right + 1 || left < own.left - 1) say("out of its own box", match[0]);
      for (const [outlined, inside, outside] of rings)
        if (!outlined.contains(el) && rects.some((r) => under(r, outside) && !within(r, inside)))
          say("under another box's outline", match[0]);
    }
    if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth)
      say("cut short (…)", node.textContent);
  }
  const canvas = document.createElement("canvas").getContext("2d");
  for (const select of root.querySelectorAll("select")) {  // any choice, once chosen, whole in its box
    if (!select.checkVisibility()) continue;
    const s = getComputedStyle(select);
    canvas.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 20;
    for (const option of select.options)
      if (canvas.measureText(option.text).width > room) say("a choice cut short in its box", option.text);
  }
  for (const svg of root.querySelectorAll("figure.chart > svg")) {
    if (!svg.checkVisibility()) continue;
    const frame = svg.getBoundingClientRect();
    const labels = [...svg.querySelectorAll("text")].map(
      (t) => ({t: t.textContent, r: t.getBoundingClientRect(), y: t.getAttribute("y")}));
    for (const [i, a] of labels.entries()) {
      if (a.r.left < frame.left - 0.5 || a.r.right > frame.right + 0.5)
        say("a chart's label cut at its edge", a.t);
      for (const b of labels.slice(i + 1)) {
        if (a.r.left < b.r.right && b.r.left < a.r.right && a.r.top < b.r.bottom && b.r.top < a.r.bottom)
          say(`a chart's label over another (${b.t})`, a.t);
        if (a.y === b.y && a.t === b.t) say("a chart's label twice", a.t);
      }
    }
  }
  return {bad: [...new Set(bad)], words};
}"""


def readable(locator, *, paper=False):
    """Every word ``locator`` shows whole, in view and big enough, and its charts'
    labels apart (READABLE_JS); returns how many words it read. ``paper``: a printed
    sheet's screen page, whose text is the paper's size and which may be wider than the
    phone, scrolling sideways in its own box as a page of paper would."""
    found = locator.evaluate(READABLE_JS, paper)
    assert not found["bad"], f"{locator.page.url} at {locator.page.viewport_size['width']} px: {found['bad']}"
    return found["words"]


# A date or time field's parts as Chromium draws them: the box its text is clipped to, the
# calendar or clock icon, and each part of the value (month, day, year, hour, minute, AM/PM)
DATE_PARTS = ("-webkit-datetime-edit", "-webkit-calendar-picker-indicator")


def _parts(node, found):
    attributes = node.get("attributes", [])
    pseudo = dict(zip(attributes[::2], attributes[1::2], strict=True)).get("pseudo", "")
    if pseudo in DATE_PARTS or (pseudo.startswith("-webkit-datetime-edit-") and pseudo.endswith("-field")):
        found.append((pseudo, node["backendNodeId"]))
    for child in node.get("children", []) + node.get("shadowRoots", []):
        _parts(child, found)
    return found


def fields_whole(page):
    """Every date and time field shows its whole value (issue 54: the last digit of a
    year under the calendar icon): each part of it inside the box its text is clipped to
    and left of the icon, empty (its placeholders) or filled. The parts are in the
    browser's own shadow tree, which no script of a page can read: they are measured
    through Chromium's DevTools protocol. A field in a closed fold is not measured."""
    if not page.locator("input[type=date]:visible, input[type=time]:visible").count():
        return
    devtools = page.context.new_cdp_session(page)
    try:
        root = devtools.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        selector = "input[type=date], input[type=time]"
        bad = []
        for node in devtools.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]:
            field = devtools.send("DOM.describeNode", {"nodeId": node, "depth": -1, "pierce": True})["node"]
            name = dict(zip(field["attributes"][::2], field["attributes"][1::2], strict=True)).get("name")
            boxes = {}
            for pseudo, backend in _parts(field, []):
                try:
                    quad = devtools.send("DOM.getBoxModel", {"backendNodeId": backend})["model"]["content"]
                except Error:  # the protocol's answer for a part not drawn
                    continue
                boxes.setdefault(pseudo, []).append((min(quad[0::2]), max(quad[0::2])))
            if "-webkit-datetime-edit" not in boxes:
                continue  # not drawn
            (left, right), *_ = boxes["-webkit-datetime-edit"]
            for icon_left, _icon_right in boxes.get("-webkit-calendar-picker-indicator", []):
                right = min(right, icon_left)
            for pseudo, spans in boxes.items():
                if pseudo.endswith("-field"):
                    for start, end in spans:
                        if end > right + 0.5 or start < left - 0.5:
                            part = pseudo.removeprefix("-webkit-datetime-edit-").removesuffix("-field")
                            bad.append(f"{name}: its {part} at {start:.0f}-{end:.0f} px, room to {right:.0f}")
    finally:
        devtools.detach()
    width = page.viewport_size["width"]
    assert not bad, f"{page.url} at {width} px: a field's value cut or under its icon: {bad}"
