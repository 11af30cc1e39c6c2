"""A row reported through a table's entry link keeps the seats of the player who entered it
and of the one who confirmed it; the rows reported before are filled in from the audit
entries of their confirmation."""

from django.db import migrations, models


def from_the_audit(apps, schema_editor):
    AuditEntry = apps.get_model("club", "AuditEntry")
    SheetRow = apps.get_model("tournaments", "SheetRow")
    for data in (
        AuditEntry.objects.filter(verb="sheet.report.confirm").order_by("pk").values_list("data", flat=True)
    ):
        SheetRow.objects.filter(table_id=data.get("table"), index=data.get("row")).update(
            entered_by_seat=data.get("entered_by"), confirmed_by_seat=data.get("seat")
        )


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0011_check_in'),
        ('club', '0007_season_and_check_in_audit_verbs'),
    ]

    operations = [
        migrations.AddField(
            model_name='sheetrow',
            name='confirmed_by_seat',
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True, verbose_name='confirmed by seat'),
        ),
        migrations.AddField(
            model_name='sheetrow',
            name='entered_by_seat',
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True, verbose_name='entered by seat'),
        ),
        migrations.RunPython(from_the_audit, migrations.RunPython.noop),
    ]
