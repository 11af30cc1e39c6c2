"""Numbers as pages write them (``core.numbers``): ``{{ score|figure }}`` for −18, and
``{{ change|signed }}`` for +12 and −7."""

from django import template

from core.numbers import figure, signed

register = template.Library()
register.filter("figure", figure)
register.filter("signed", signed)
