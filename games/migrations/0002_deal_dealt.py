"""What was dealt moves into one field, ``Deal.dealt`` (a game may deal more than hands);
a drawn card becomes an action of its own in the log (a step of the game's engine). Old
snapshots are rebuilt from the log when next read (their format says they are old)."""

from django.db import migrations, models

import games.registry


def forward(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    DealEvent = apps.get_model("games", "DealEvent")
    for deal in Deal.objects.all().only("pk", "hands", "stock"):
        dealt = {"hands": deal.hands}
        if deal.stock is not None:
            dealt["stock"] = deal.stock
        Deal.objects.filter(pk=deal.pk).update(dealt=dealt)
    for event in DealEvent.objects.filter(kind="draw"):
        DealEvent.objects.filter(pk=event.pk).update(
            kind="action", data={"seat": event.seat, "draw": True})


def backward(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    DealEvent = apps.get_model("games", "DealEvent")
    for deal in Deal.objects.all().only("pk", "dealt"):
        Deal.objects.filter(pk=deal.pk).update(hands=deal.dealt["hands"],
                                                stock=deal.dealt.get("stock"))
    for event in DealEvent.objects.filter(kind="action", data__draw=True):
        DealEvent.objects.filter(pk=event.pk).update(kind="draw", data={})


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="deal",
            name="dealt",
            field=models.JSONField(default=dict, help_text="As the deal's record writes it.",
                                   verbose_name="cards dealt"),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="deal",
            name="hands",
            field=models.JSONField(null=True, verbose_name="cards dealt"),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="deal", name="hands"),
        migrations.RemoveField(model_name="deal", name="stock"),
        migrations.AlterField(
            model_name="table",
            name="game",
            field=models.CharField(choices=games.registry.choices, max_length=16,
                                   verbose_name="game"),
        ),
        migrations.AlterField(
            model_name="dealevent",
            name="kind",
            field=models.CharField(choices=[("action", "action"), ("take_back", "take-back"),
                                            ("reveal", "hand shown")],
                                   max_length=16, verbose_name="kind"),
        ),
    ]
