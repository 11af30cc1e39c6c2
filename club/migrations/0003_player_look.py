"""What each player's name looks like (``club.names.look``), so that a new name that looks
like another player's is refused. Players named before may share a look (an "Аlice" with a
Cyrillic А beside an "Alice"): the column is not unique, and both stay as they are."""

from django.db import migrations, models

from club.names import look


def fill_looks(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    players = list(Player.objects.only("pk", "name"))
    for player in players:
        player.look = look(player.name)
    Player.objects.bulk_update(players, ["look"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("club", "0002_organiser")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="look",
            field=models.TextField(db_index=True, default="", editable=False),
        ),
        migrations.RunPython(fill_looks, migrations.RunPython.noop),
    ]
