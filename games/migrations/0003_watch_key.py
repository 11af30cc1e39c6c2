from django.db import migrations, models

import games.models


def give_keys(apps, schema_editor):
    # Each table its own key: a callable default is evaluated once for all existing rows.
    Table = apps.get_model("games", "Table")
    for table in Table.objects.filter(watch_key__isnull=True).only("pk"):
        table.watch_key = games.models.new_token()
        table.save(update_fields=["watch_key"])


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0002_deal_dealt"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="watch_key",
            field=models.CharField(max_length=32, null=True, editable=False),
        ),
        migrations.RunPython(give_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="watch_key",
            field=models.CharField(default=games.models.new_token, editable=False,
                                   help_text="The unguessable part of the spectators' address.",
                                   max_length=32, unique=True, verbose_name="spectators' key"),
        ),
    ]
