"""A withdrawal's help text worded for any player: "their results stand"."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_sheet_row_reporters"),
    ]

    operations = [
        migrations.AlterField(
            model_name="entrant",
            name="withdrawn_after",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Not seated again; their results stand.",
                null=True,
                verbose_name="withdrew after round",
            ),
        ),
    ]
