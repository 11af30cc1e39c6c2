"""Pages in a real browser: Debian's chromium driven by Playwright (marker ``browser``)."""
