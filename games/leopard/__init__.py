"""Леопард (Robert Abbott's Leopard): two players, two packs, 3x3 squares of lines."""
