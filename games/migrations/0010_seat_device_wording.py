"""A seat's device field named for any player: "on their own device"."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_deal_robot_due_at"),
    ]

    operations = [
        migrations.AlterField(
            model_name="seat",
            name="device",
            field=models.BooleanField(
                default=False,
                help_text="Played on the player's own device rather than at the shared screen.",
                verbose_name="on their own device",
            ),
        ),
    ]
