"""Each tournament's own directors and scorers: its creator directs it; the members of the
club-wide scorers' group score every tournament there is, and the group goes (a scorer is
named by a tournament's director from now on)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def name_officials(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    Official = apps.get_model("tournaments", "Official")
    Group = apps.get_model("auth", "Group")
    scorers = Group.objects.filter(name="scorer").first()
    scoring = list(scorers.user_set.all()) if scorers else []
    for tournament in Tournament.objects.all():
        if tournament.created_by_id is not None:
            Official.objects.create(
                tournament=tournament, user_id=tournament.created_by_id, role="director"
            )
        for user in scoring:
            if user.pk != tournament.created_by_id:
                Official.objects.create(tournament=tournament, user=user, role="scorer")
    if scorers:
        scorers.delete()


def club_scorers(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    Official = apps.get_model("tournaments", "Official")
    scorers, _ = Group.objects.get_or_create(name="scorer")
    scorers.permissions.add(
        *Permission.objects.filter(
            content_type__app_label__in=["tournaments", "games"], codename__startswith="view_"
        ),
        *Permission.objects.filter(
            content_type__app_label="tournaments", codename="change_sheetrow"
        ),
    )
    scorers.user_set.add(
        *Official.objects.filter(role="scorer").values_list("user_id", flat=True).distinct()
    )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_player_in_club"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.CreateModel(
            name="Official",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "role",
                    models.CharField(
                        choices=[("director", "director"), ("scorer", "scorer")],
                        max_length=8,
                        verbose_name="role",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="officials",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="tournament_roles",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="user",
                    ),
                ),
            ],
            options={
                "verbose_name": "tournament's director or scorer",
                "verbose_name_plural": "tournaments' directors and scorers",
                "ordering": ["tournament", "role", "user__username"],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "user"), name="official_once")
                ],
            },
        ),
        migrations.RunPython(name_officials, club_scorers),
    ]
