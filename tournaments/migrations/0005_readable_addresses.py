"""Every tournament gets an address a person can read and type: a key in Latin letters
(``tournaments.addresses``). A key that was not one is kept as the former key, whose pages
redirect to the same pages under the new one. Each tournament is dated the day it was
created. A tournament remembers the form it was created from (a form sent twice makes one)."""

import django.utils.timezone
from django.db import migrations, models

from tournaments.addresses import is_readable, readable_key


def forwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    rows = list(Tournament.objects.order_by("pk").values_list("pk", "key", "name",
                                                              "created_at"))
    taken = {key for _pk, key, _name, _created in rows}  # a former key stays its own
    for pk, key, name, created in rows:
        changes = {"date": django.utils.timezone.localdate(created)}
        if not is_readable(key):
            new = readable_key(name, taken.__contains__)
            taken.add(new)
            changes.update(key=new, old_key=key)
        Tournament.objects.filter(pk=pk).update(**changes)


def backwards(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk, old_key in (Tournament.objects.filter(old_key__isnull=False)
                        .values_list("pk", "old_key")):
        Tournament.objects.filter(pk=pk).update(key=old_key, old_key=None)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0004_version"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="tournament",
            options={"ordering": ["-date", "-created_at"], "verbose_name": "tournament",
                     "verbose_name_plural": "tournaments"},
        ),
        migrations.AddField(
            model_name="tournament",
            name="date",
            field=models.DateField(default=django.utils.timezone.localdate,
                                   verbose_name="date"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="old_key",
            field=models.CharField(blank=True, editable=False, max_length=80, null=True,
                                   unique=True, verbose_name="former key"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="form_token",
            field=models.CharField(blank=True, editable=False, max_length=64, null=True,
                                   unique=True, verbose_name="form"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="key",
            field=models.SlugField(help_text="The tournament's name in addresses and commands.",
                                   max_length=80, unique=True, verbose_name="key"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="seed",
            field=models.BigIntegerField(verbose_name="seed of the draw"),
        ),
        migrations.RunPython(forwards, backwards),
    ]
