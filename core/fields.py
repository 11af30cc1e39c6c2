"""Numbers typed into the club's forms: ASCII digits only. Django's own number fields read
any Unicode digit (``٣`` as 3, ``１`` as 1) and Python's ``int`` an underscore (``1_000``),
so a figure could pass that the person who typed it never saw as that number."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

WHOLE = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
MOST_DIGITS = 30  # far beyond any field's range; int() of thousands of digits is slow


def whole_number(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits (a sign, the minus sign − too, and
    spaces around allowed); None for anything else."""
    text = text.strip().replace("−", "-")
    if not WHOLE.fullmatch(text) or len(text) > MOST_DIGITS:
        return None
    return int(text)


class WholeNumberField(forms.IntegerField):
    """An integer field that takes ASCII digits only (and − for minus)."""

    default_error_messages = {"invalid": _("Enter a whole number in the digits 0 to 9.")}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        number = whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class DecimalNumberField(forms.DecimalField):
    """A decimal field that takes ASCII digits only, with a point."""

    default_error_messages = {"invalid": _("Enter a number in the digits 0 to 9.")}

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip().replace("−", "-")
        if not DECIMAL.fullmatch(text) or len(text) > MOST_DIGITS:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text)
