"""An entrant is a club player (``club.Player``, the same table as ever): state only."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0001_initial"),
        ("tournaments", "0006_admin_words"),
    ]
    # before the games app gives its Player up, so that no entrant points to a model gone
    run_before = [("games", "0007_player_in_club")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="entrant",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT,
                                            related_name="entries", to="club.player",
                                            verbose_name="player"),
                ),
            ],
        ),
    ]
