"""Players' names: the one form a name is kept in, and its look, which two names that a reader
could take for each other share.

A name is kept in Unicode's NFKC form with its blanks made single spaces: a full-width
"Ａｌｉｃｅ" is "Alice", an "Андрей" typed with a combining breve is the one typed with "й".
Its key (``fold``) is that form case-folded: "анна" and "Анна" are one player. Its look is
the confusable skeleton of Unicode's UTS #39 (ICU computes it): "Аlice" with a Cyrillic А and
"Alice", or "Aнна" with a Latin A and "Анна", look the same, so that the second would pass
for the first at a table, in the standings or on a member's page; the club refuses it.
"""

import unicodedata

import icu

# ICU's checker is safe to share between threads once made: getSkeleton only reads it.
_CHECKER = icu.SpoofChecker()


def normal(name: str) -> str:
    """The name as the club keeps it: NFKC, without blanks around it, one space between
    its words."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def fold(name: str) -> str:
    """The name's key: the same for the same name in any case or Unicode form."""
    return normal(name).casefold()


def look(name: str) -> str:
    """What the name looks like: its UTS #39 skeleton, of the name as written (a capital I
    looks like an l) and then case-folded (as names are compared)."""
    skeleton = _CHECKER.getSkeleton(0, normal(name))
    return _CHECKER.getSkeleton(0, skeleton.casefold())
