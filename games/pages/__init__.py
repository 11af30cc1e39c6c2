"""The games app's pages, by who reads them: the site's own (``site``), a table at its shared
screen (``host``), its spectators' (``watch``), a seat's own (``seat``), a deal's record and
replay (``replays``), and a member's tables (``tables``). Each parses the request, calls one
service or selector and renders the page or its htmx partial; what they share is ``shared``,
which is the one page module the others import."""
