"""The ratings are the ratings app's now (ratings 0001): their tables stay as they are, so
the models leave this app's state with no change to the database."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("club", "0009_player_look_again")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                # the steps first: they point to the rated matches
                migrations.DeleteModel(name="RatingStep"),
                migrations.DeleteModel(name="Rating"),
                migrations.DeleteModel(name="RatedMatch"),
                migrations.DeleteModel(name="Ladder"),
            ],
        ),
    ]
