from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """The club's ratings per game, derived from the results that the apps below announce:
    it may import every app; none imports it."""

    name = "ratings"
    verbose_name = _("Ratings")
