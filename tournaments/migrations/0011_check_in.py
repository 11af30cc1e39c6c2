"""Check-in: who is present for a round not yet released."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0010_seasons'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='CheckIn',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('round', models.PositiveSmallIntegerField(verbose_name='round')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='checked in at')),
                ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='checked in by')),
                ('entrant', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='tournaments.entrant', verbose_name='entrant')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'check-in',
                'verbose_name_plural': 'check-ins',
                'ordering': ['tournament', 'round', 'at', 'pk'],
                'indexes': [models.Index(fields=['tournament', 'round'], name='tournaments_tournam_055da4_idx')],
                'constraints': [models.UniqueConstraint(fields=('entrant', 'round'), name='check_in_once')],
            },
        ),
    ]
