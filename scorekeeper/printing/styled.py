"""HTML laid out by WeasyPrint with one of the app's stylesheets (``static/``): the
pictures for the family chat and the yearbook. The font configuration and the parsed
stylesheet are made once a process (building them per document is slow), and a document
fetches nothing: its HTML names no file, image or stylesheet."""

from __future__ import annotations

import os
import threading

from ..web.resources import resource_folder


class Styled:
    """Documents laid out with ``static/<css>``; ``what`` names them in the refusal of a
    fetch ("a picture", "a yearbook")."""

    def __init__(self, css, what):
        self.css, self.what = css, what
        self._made = None
        self._lock = threading.Lock()

    def fonts_and_style(self):
        """(WeasyPrint's FontConfiguration, the CSS), made on first use."""
        with self._lock:
            if self._made is None:
                from weasyprint import CSS
                from weasyprint.text.fonts import FontConfiguration

                fonts = FontConfiguration()
                # CSS(filename=) would leave the file open
                with open(os.path.join(resource_folder("static"), self.css), encoding="utf-8") as file:
                    self._made = fonts, CSS(string=file.read(), font_config=fonts)
            return self._made

    def _refuse(self, url):
        raise ValueError(f"{self.what} fetches nothing (asked for {url})")

    def document(self, html):
        """The HTML laid out: WeasyPrint's document, its pages and boxes."""
        from weasyprint import HTML

        fonts, style = self.fonts_and_style()
        return HTML(string=html, url_fetcher=self._refuse).render(stylesheets=[style], font_config=fonts)

    def pdf(self, html):
        """The HTML's PDF."""
        return self.document(html).write_pdf()
