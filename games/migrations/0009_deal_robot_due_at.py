from django.db import migrations, models
from django.utils import timezone


def due_now(apps, schema_editor):
    """The unfinished deals of open tables with a robot may have a robot to act: due now.
    The server looks at each and takes the turn if it is a robot's (games.robot_turns)."""
    Deal = apps.get_model("games", "Deal")
    Deal.objects.filter(
        is_over=False, table__state="playing", table__seats__robot__gt=""
    ).update(robot_due_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [("games", "0008_seat_links")]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="robot_due_at",
            field=models.DateTimeField(
                blank=True,
                db_index=True,
                editable=False,
                null=True,
                verbose_name="robot's turn due",
            ),
        ),
        migrations.RunPython(due_now, migrations.RunPython.noop),
    ]
