"""Выборы (Robert Abbott's Variety): an auction of eight contracts, 4 players."""
