"""What the pages and the server share: numbers and times as shown (``formatting``), SVG
charts (``charts``), the Host check and headers (``security``), compressed and cached
static files (``assets``), this computer's addresses (``network``), the household passcode
(``passcode``), https at home (``certificates``), and where templates and static files are
(``resources``)."""
