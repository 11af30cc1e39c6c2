"""Each player's look computed again by the ICU the club now ships (pyicu-wheels): a look
kept from another ICU's confusables data would not catch a look-alike that this one does."""

from django.db import migrations

from club.names import look


def refill_looks(apps, schema_editor):
    Player = apps.get_model("club", "Player")
    players = [p for p in Player.objects.only("pk", "name", "look") if p.look != look(p.name)]
    for player in players:
        player.look = look(player.name)
    Player.objects.bulk_update(players, ["look"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("club", "0008_plan_round_verb")]

    operations = [migrations.RunPython(refill_looks, migrations.RunPython.noop)]
