"""The organisers' role, as a group: they manage the members and may act in every
tournament; in the admin they hold the directors' permissions. And the audit entries'
verbs of the roles given in the club and in a tournament."""

from django.db import migrations, models


def create_organisers(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    organisers, _ = Group.objects.get_or_create(name="organiser")
    director = Group.objects.filter(name="director").first()
    if director is not None:
        organisers.permissions.add(*director.permissions.all())


def remove_organisers(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name="organiser").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("club", "0001_initial"),
        ("tournaments", "0002_roles"),  # the directors' group and its permissions
    ]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="verb",
            field=models.CharField(
                choices=[
                    ("player.add", "club player added"),
                    ("player.change", "club player changed"),
                    ("player.rename", "club player renamed"),
                    ("member.invite", "member invited"),
                    ("member.link", "account linked to a player"),
                    ("member.unlink", "account unlinked from its player"),
                    ("member.reset", "password reset"),
                    ("member.password", "password changed"),
                    ("member.roles", "member's roles changed"),
                    ("table.start", "table started"),
                    ("table.rename", "table renamed"),
                    ("table.finish", "table finished"),
                    ("table.abandon", "table abandoned"),
                    ("deal.start", "deal dealt"),
                    ("deal.action", "move"),
                    ("deal.reveal", "hand shown"),
                    ("deal.take_back", "move taken back"),
                    ("deal.robot", "robot's move"),
                    ("tournament.create", "tournament created"),
                    ("tournament.import", "tournament imported"),
                    ("tournament.enter", "player entered"),
                    ("tournament.remove", "entry removed"),
                    ("tournament.withdraw", "player withdrawn"),
                    ("tournament.withdraw.undo", "withdrawal undone"),
                    ("tournament.play_here", "table played here"),
                    ("tournament.adjust", "adjustment made"),
                    ("tournament.adjust.correct", "adjustment corrected"),
                    ("tournament.adjust.revert", "adjustment reverted"),
                    ("tournament.role.add", "tournament's director or scorer named"),
                    ("tournament.role.remove", "tournament's director or scorer removed"),
                    ("round.draw", "round drawn"),
                    ("round.swap", "players swapped"),
                    ("round.release", "round released"),
                    ("sheet.enter", "sheet typed in"),
                    ("sheet.confirm", "sheet confirmed"),
                    ("sheet.correct", "sheet row corrected"),
                    ("sheet.revert", "sheet row reverted"),
                ],
                max_length=32,
                verbose_name="what",
            ),
        ),
        migrations.RunPython(create_organisers, remove_organisers),
    ]
