"""Duplicate tournaments: the same deals at every table of a round's group, each result
compared with those of the seats that held the same cards."""
