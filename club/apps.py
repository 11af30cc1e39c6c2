import axes.apps
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubConfig(AppConfig):
    """What the whole club shares: its players and members, their roles, the audit log, live
    notices, uploaded documents and the wording of refusals. It imports neither ``games`` nor
    ``tournaments``."""

    name = "club"
    verbose_name = _("Club")

    def ready(self):
        from django.contrib.auth.models import Group
        from django.db.backends.signals import connection_created
        from django.db.models.signals import pre_migrate

        from . import backups, roles

        connection_created.connect(backups.on_connection, dispatch_uid="club.backups.protect")
        # pre_migrate is sent once for each app: the club's is the one that backs up
        pre_migrate.connect(backups.before_migrate, sender=self, dispatch_uid="club.backups")
        # the admin names a group by str() in its lists, filters, forms and titles: a role's
        # group by its label in the reader's language
        Group.__str__ = lambda group: roles.label(group.name)


class SignInThrottlingConfig(axes.apps.AppConfig):
    """django-axes, named in the reader's language in the admin (axes translates its
    models' names, not its own). Named in INSTALLED_APPS: not the club's own config."""

    default = False
    verbose_name = _("Sign-in throttling")
