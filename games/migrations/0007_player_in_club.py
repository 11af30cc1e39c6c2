"""The players and the audit log are the club app's now (club 0001): their tables stay as
they are, so the seats point to ``club.Player`` and the two models leave this app's state
with no change to the database. Their content types (and so their permissions and the
admin's history of them) go with them."""

import django.db.models.deletion
from django.db import migrations, models

MOVED = ("player", "auditentry")


def move_content_types(source: str, target: str):
    def move(apps, schema_editor):
        ContentType = apps.get_model("contenttypes", "ContentType")
        db = schema_editor.connection.alias
        for model in MOVED:
            old = ContentType.objects.using(db).filter(app_label=source, model=model).first()
            if old is None:  # none made yet: it is made under the target after migrating
                continue
            # One made under the target meanwhile (by the roles' migration on a fresh
            # database, or a migrate of that app alone) gives way to the one the roles'
            # permissions and the admin's history point to.
            ContentType.objects.using(db).filter(app_label=target, model=model).delete()
            old.app_label = target
            old.save(update_fields=["app_label"])

    return move


class Migration(migrations.Migration):

    dependencies = [
        ("club", "0001_initial"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0006_admin_words"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.AlterField(
                    model_name="seat",
                    name="player",
                    field=models.ForeignKey(blank=True, null=True,
                                            on_delete=django.db.models.deletion.PROTECT,
                                            related_name="seats", to="club.player",
                                            verbose_name="player"),
                ),
                migrations.AlterField(
                    model_name="table",
                    name="players",
                    field=models.ManyToManyField(related_name="tables", through="games.Seat",
                                                 to="club.player"),
                ),
                migrations.DeleteModel(name="AuditEntry"),
                migrations.DeleteModel(name="Player"),
            ],
        ),
        migrations.RunPython(move_content_types("games", "club"),
                             move_content_types("club", "games")),
    ]
