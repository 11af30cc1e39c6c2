"""The club's roles as groups: a director runs tournaments (and edits scores in the admin),
a scorer types in, confirms and corrects sheets, a player reads and plays."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

PERMISSIONS = {
    "director": {"tournaments": ["add", "change", "delete", "view"],
                 "games": ["view"]},
    "scorer": {"tournaments": ["view"], "games": ["view"]},
    "player": {},
}
SCORER_CHANGES = ["sheetrow"]  # adjustments are the director's


def create_roles(apps, schema_editor):
    for app in apps.get_app_configs():  # permissions are made after migrations otherwise
        app.models_module = True
        create_permissions(app, verbosity=0, apps=apps)
        app.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, grants in PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=name)
        for app_label, actions in grants.items():
            group.permissions.add(*Permission.objects.filter(
                content_type__app_label=app_label,
                codename__regex=rf"^({'|'.join(actions)})_"))
    Group.objects.get(name="scorer").permissions.add(*Permission.objects.filter(
        content_type__app_label="tournaments",
        codename__in=[f"change_{model}" for model in SCORER_CHANGES]))


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=PERMISSIONS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
        ("games", "0002_deal_dealt"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
