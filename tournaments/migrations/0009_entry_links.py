"""Each table of a round gets its entry link's key (the existing tables too, each its own),
and the row its players report awaits its confirmation in a model of its own."""

import secrets

import django.db.models.deletion
from django.db import migrations, models

import tournaments.models


def fill_keys(apps, schema_editor):
    RoundTable = apps.get_model("tournaments", "RoundTable")
    for table in RoundTable.objects.filter(entry_key__isnull=True).only("pk"):
        table.entry_key = secrets.token_urlsafe(16)
        table.save(update_fields=["entry_key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_officials"),
    ]

    operations = [
        migrations.AddField(
            model_name="roundtable",
            name="entry_key",
            field=models.CharField(
                editable=False, max_length=32, null=True, verbose_name="entry key"
            ),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="roundtable",
            name="entry_key",
            field=models.CharField(
                default=tournaments.models.new_entry_key,
                editable=False,
                max_length=32,
                unique=True,
                verbose_name="entry key",
            ),
        ),
        migrations.AddField(
            model_name="roundtable",
            name="reported",
            field=models.BooleanField(
                default=False, editable=False, verbose_name="reported by its players"
            ),
        ),
        migrations.CreateModel(
            name="ReportedRow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("index", models.PositiveSmallIntegerField(verbose_name="row")),
                ("data", models.JSONField(verbose_name="row")),
                ("seat", models.PositiveSmallIntegerField(verbose_name="entered by seat")),
                (
                    "revision",
                    models.PositiveIntegerField(default=1, editable=False, verbose_name="version"),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="entered")),
                (
                    "table",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="reported_row",
                        to="tournaments.roundtable",
                        verbose_name="table",
                    ),
                ),
            ],
            options={
                "verbose_name": "row awaiting confirmation",
                "verbose_name_plural": "rows awaiting confirmation",
            },
        ),
    ]
