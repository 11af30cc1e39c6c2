"""Фантан (Fan-Tan, card dominoes): 3 or 4 players, also a deal of Кинг."""
