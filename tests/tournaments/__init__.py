"""Tournaments: seating, sheets, standings, services, pages, corrections and the admin."""
