"""The club's players and audit log, which the games app held first: their tables stay as
they are (``games_player``, ``games_auditentry``); only Django's idea of whose models they
are changes (games 0007 gives them up, tournaments 0007 points its entrants here)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("games", "0006_admin_words"),  # the audit entries point to its tables and deals
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name='AuditEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='time')),
                        ('verb', models.CharField(choices=[('player.add', 'club player added'), ('player.change', 'club player changed'), ('player.rename', 'club player renamed'), ('member.invite', 'member invited'), ('member.link', 'account linked to a player'), ('member.unlink', 'account unlinked from its player'), ('member.reset', 'password reset'), ('member.password', 'password changed'), ('table.start', 'table started'), ('table.rename', 'table renamed'), ('table.finish', 'table finished'), ('table.abandon', 'table abandoned'), ('deal.start', 'deal dealt'), ('deal.action', 'move'), ('deal.reveal', 'hand shown'), ('deal.take_back', 'move taken back'), ('deal.robot', "robot's move"), ('tournament.create', 'tournament created'), ('tournament.import', 'tournament imported'), ('tournament.enter', 'player entered'), ('tournament.remove', 'entry removed'), ('tournament.withdraw', 'player withdrawn'), ('tournament.withdraw.undo', 'withdrawal undone'), ('tournament.play_here', 'table played here'), ('tournament.adjust', 'adjustment made'), ('tournament.adjust.correct', 'adjustment corrected'), ('tournament.adjust.revert', 'adjustment reverted'), ('round.draw', 'round drawn'), ('round.swap', 'players swapped'), ('round.release', 'round released'), ('sheet.enter', 'sheet typed in'), ('sheet.confirm', 'sheet confirmed'), ('sheet.correct', 'sheet row corrected'), ('sheet.revert', 'sheet row reverted')], max_length=32, verbose_name='what')),
                        ('data', models.JSONField(default=dict, verbose_name='details')),
                        ('deal', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.deal', verbose_name='deal')),
                        ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.table', verbose_name='table')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                    ],
                    options={
                        'verbose_name': 'audit entry',
                        'verbose_name_plural': 'audit entries',
                        'db_table': 'games_auditentry',
                        'ordering': ['-created_at', '-pk'],
                    },
                ),
                migrations.CreateModel(
                    name='Player',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=60, unique=True, verbose_name='name')),
                        ('key', models.CharField(editable=False, max_length=60, unique=True)),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('user', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='club_player', to=settings.AUTH_USER_MODEL, verbose_name='user account')),
                    ],
                    options={
                        'verbose_name': 'player',
                        'verbose_name_plural': 'players',
                        'db_table': 'games_player',
                        'ordering': ['name'],
                    },
                ),
            ],
        ),
    ]
