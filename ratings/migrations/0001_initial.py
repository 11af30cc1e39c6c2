"""The club's ratings, the club app's until now (club 0001 to 0010): their tables stay as
they are (each model keeps its ``db_table``), so the models enter this app's state with no
change to the database. Their content types (and so their permissions and the admin's
history of them) go with them."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = ("ladder", "ratedmatch", "ratingstep", "rating")


def move_content_types(source: str, target: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED:
            old = ContentType.objects.using(db).filter(app_label=source, model=model).first()
            if old is None:  # none made yet: it is made under the target after migrating
                continue
            # one made under the target meanwhile gives way to the one permissions point to
            ContentType.objects.using(db).filter(app_label=target, model=model).delete()
            old.app_label = target
            old.save(update_fields=["app_label"])

    return move


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("club", "0010_ratings_app"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='Ladder',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=16, unique=True, verbose_name='game')),
                    ],
                    options={
                        'db_table': 'club_ladder',
                        'verbose_name': 'ladder',
                        'verbose_name_plural': 'ladders',
                    },
                ),
                migrations.CreateModel(
                    name='RatedMatch',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=16, verbose_name='game')),
                        ('key', models.CharField(max_length=64, verbose_name='match')),
                        ('order', models.CharField(max_length=96, verbose_name='order')),
                        ('completed_at', models.DateTimeField(verbose_name='completed')),
                    ],
                    options={
                        'db_table': 'club_ratedmatch',
                        'verbose_name': 'rated match',
                        'verbose_name_plural': 'rated matches',
                        'ordering': ['game', 'order'],
                        'constraints': [models.UniqueConstraint(fields=('game', 'key'), name='rated_match_once'), models.UniqueConstraint(fields=('game', 'order'), name='rated_match_order_once')],
                    },
                ),
                migrations.CreateModel(
                    name='Rating',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('game', models.CharField(max_length=16, verbose_name='game')),
                        ('mu', models.FloatField(verbose_name='μ')),
                        ('sigma', models.FloatField(verbose_name='σ')),
                        ('matches', models.PositiveIntegerField(verbose_name='rated matches')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ratings', to='club.player', verbose_name='player')),
                    ],
                    options={
                        'db_table': 'club_rating',
                        'verbose_name': 'rating',
                        'verbose_name_plural': 'ratings',
                        'ordering': ['game', 'player'],
                        'constraints': [models.UniqueConstraint(fields=('player', 'game'), name='rating_once')],
                    },
                ),
                migrations.CreateModel(
                    name='RatingStep',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('seat', models.PositiveSmallIntegerField(verbose_name='seat')),
                        ('points', models.IntegerField(verbose_name='points')),
                        ('rank', models.PositiveSmallIntegerField(verbose_name='place')),
                        ('mu_before', models.FloatField()),
                        ('sigma_before', models.FloatField()),
                        ('mu', models.FloatField()),
                        ('sigma', models.FloatField()),
                        ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='steps', to='ratings.ratedmatch', verbose_name='match')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_steps', to='club.player', verbose_name='player')),
                    ],
                    options={
                        'db_table': 'club_ratingstep',
                        'verbose_name': 'rating step',
                        'verbose_name_plural': 'rating steps',
                        'ordering': ['match', 'seat'],
                        'indexes': [models.Index(fields=['player', 'match'], name='club_rating_player__4648eb_idx')],
                        'constraints': [models.UniqueConstraint(fields=('match', 'player'), name='rating_step_once')],
                    },
                ),
            ],
        ),
        migrations.RunPython(move_content_types("club", "ratings"),
                             move_content_types("ratings", "club")),
    ]
