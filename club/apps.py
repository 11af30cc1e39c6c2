import axes.apps
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    """The club's people: its players and members, their roles, the audit log. It imports
    ``core`` alone of the project's packages."""

    name = "club"
    verbose_name = _("Club")

    def ready(self):
        from django.contrib.auth.models import Group
        from django.db.models.signals import pre_migrate

        from core import backups

        from . import roles

        # pre_migrate is sent once for each app with models (core has none): the club's is
        # the one that backs up
        pre_migrate.connect(backups.before_migrate, sender=self, dispatch_uid="core.backups")
        # the admin names a group by str() in its lists, filters, forms and titles: a role's
        # group by its label in the reader's language
        Group.__str__ = lambda group: roles.label(group.name)


class SignInThrottlingConfig(axes.apps.AppConfig):
    """django-axes, named in the reader's language in the admin (axes translates its
    models' names, not its own). Named in INSTALLED_APPS: not the club's own config."""

    default = False
    verbose_name = _("Sign-in throttling")
