"""What a club's database holds, to compare two databases after the club has moved between
them (docs/deploying.md, "Moving a club to PostgreSQL"); and a new deal played there.

``python -m tests.support.moved_club content|play``, on the database ``DATABASE_URL`` names:
``content`` prints ``content()`` as JSON; ``play`` has a new member start a table and play
its first deal to its end through the services, and prints what was written."""

import datetime
import json
import os
import sys

# The rows the move leaves out: migrate makes the content types and permissions again, and
# the members sign in again.
LEFT_OUT = {"contenttypes.contenttype", "auth.permission", "sessions.session"}
# The move's dumpdata, as docs/deploying.md gives it. XML, whose times keep their
# microseconds (JSON's keep milliseconds only).
DUMPDATA = (
    "dumpdata --format xml --natural-foreign --natural-primary --exclude contenttypes "
    "--exclude auth.permission --exclude sessions"
)


def content() -> dict[str, list]:
    """Every row of every model the move carries, by model, its fields as stored. A row of a
    model with natural keys (accounts, groups, content types, permissions) and a reference
    to one are written as the natural key, which the move keeps, not as the id, which it
    need not keep; so are the rows of a many-to-many table, which the move writes anew."""
    from django.apps import apps
    from django.core.serializers.json import DjangoJSONEncoder

    class Exact(DjangoJSONEncoder):
        """Times to the microsecond (DjangoJSONEncoder's stop at the millisecond)."""

        def default(self, o):
            if isinstance(o, datetime.datetime | datetime.time):
                return o.isoformat()
            return super().default(o)

    keys: dict = {}

    def natural(model) -> bool:
        return hasattr(model, "natural_key")

    def key_of(model, pk):
        if model not in keys:
            keys[model] = {obj.pk: list(obj.natural_key()) for obj in model._base_manager.all()}
        return keys[model][pk]

    out = {}
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label_lower
        if label in LEFT_OUT:
            continue
        by_key = natural(model) or model._meta.auto_created
        rows = []
        for obj in model._base_manager.order_by("pk"):
            row = {}
            for field in model._meta.concrete_fields:
                if field.primary_key and by_key:
                    continue
                value = getattr(obj, field.attname)
                if field.is_relation and value is not None and natural(field.related_model):
                    value = key_of(field.related_model, value)
                row[field.name] = value
            rows.append(json.loads(json.dumps(row, cls=Exact, sort_keys=True)))
        if by_key:
            rows.sort(key=lambda row: json.dumps(row, sort_keys=True))
        out[label] = rows
    return out


def play() -> dict:
    """A new member and a new club player; a new Фантан table of theirs and its first deal
    played to its end (hands revealed, every move a legal one)."""
    from django.contrib.auth import get_user_model

    from club.models import Player
    from games import selectors, services
    from tests.support import club_night

    user = get_user_model().objects.create_user("newcomer", password=None)
    Player.objects.create(name="Новичок")
    table = services.start_table(
        user=user,
        game="fantan",
        players=["Новичок", "Анна", "Борис", "Вера"],
        options={},
        seed=5,
    )
    club_night.play(table, user, deals_over=1)
    deal = selectors.current_deal(table)
    return {"over": deal.is_over, "events": deal.events.count(), "table": table.pk}


if __name__ == "__main__":
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    what = {"content": content, "play": play}[sys.argv[1]]
    print(json.dumps(what(), ensure_ascii=False))
