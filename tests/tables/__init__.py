"""Hotseat tables: their pages, services, replays, robots at them and live pages."""
