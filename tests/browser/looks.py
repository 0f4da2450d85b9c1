"""What a person sees on a phone, measured in the page: no sideways scroll, every number
whole on one line, no error message where none is expected.

Each check runs on a page that has finished loading (the caller waited on it with
Playwright's expect, or a navigation): none of them reads a page that may be leaving.
"""

from playwright.sync_api import expect

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
