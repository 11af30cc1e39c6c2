import secrets

from django.db import migrations, models

import games.models


def fill_keys(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    for seat in Seat.objects.filter(key__isnull=True).only("pk"):
        seat.key = secrets.token_urlsafe(16)
        seat.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [("games", "0007_player_in_club")]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="key",
            field=models.CharField(max_length=32, null=True, editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="seat",
            name="key",
            field=models.CharField(
                default=games.models.new_token,
                editable=False,
                help_text="The unguessable part of the seat's own address.",
                max_length=32,
                unique=True,
                verbose_name="seat's key",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="device",
            field=models.BooleanField(
                default=False,
                help_text="Played on the player's own device rather than at the shared screen.",
                verbose_name="on his own device",
            ),
        ),
        migrations.AddField(
            model_name="seat",
            name="seen_at",
            field=models.DateTimeField(
                blank=True, editable=False, null=True, verbose_name="last seen"
            ),
        ),
    ]
