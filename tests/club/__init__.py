"""The club: members and roles, translations, settings and serving, the crawl of every page,
migrations and the import graph."""
