"""Seasons: tournaments of one game grouped for standings of their own; a tournament is in
at most one."""

import django.db.models.deletion
import games.registry
import tournaments.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0009_entry_links'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Season',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.SlugField(help_text="The season's name in addresses.", max_length=80, unique=True, verbose_name='key')),
                ('name', models.CharField(max_length=200, verbose_name='name')),
                ('game', models.CharField(choices=games.registry.choices, max_length=16, verbose_name='game')),
                ('scoring', models.CharField(choices=[('places', 'by places: each place of a tournament is worth its points'), ('match_points', 'by match points: the sum of those made in each tournament')], default='places', max_length=16, verbose_name='scoring')),
                ('place_points', models.JSONField(default=tournaments.models.default_place_points, help_text='From the first place down; a place beyond the list scores 0.', verbose_name='points for each place')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('form_token', models.CharField(blank=True, editable=False, max_length=64, null=True, unique=True, verbose_name='form')),
                ('version', models.PositiveIntegerField(default=0, editable=False, verbose_name='version')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
            ],
            options={
                'verbose_name': 'season',
                'verbose_name_plural': 'seasons',
                'ordering': ['-created_at', '-pk'],
            },
        ),
        migrations.AddField(
            model_name='tournament',
            name='season',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tournaments', to='tournaments.season', verbose_name='season'),
        ),
    ]
