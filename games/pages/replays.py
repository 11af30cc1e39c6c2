"""A finished deal's record and its replay, from the table's page, its spectators' and a
seat's own, and the replay of a deal record a reader uploads."""

import io
import json
from dataclasses import fields

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from core.documents import Unreadable, read_text
from core.wording import SHOWN_VALUE

from .. import replay_steps, selectors
from ..engine import InvalidRecord
from ..engine.records import IllegalRecordAction, parse
from .shared import (
    message_text,
    refused_page,
    seat_page,
    table_get,
    table_watched,
    withheld_text,
)

REPLAY = "games/replay.html"


# -- a deal's record ----------------------------------------------------------------------------


@table_get
def deal_record(request, table, number):
    return record_response(request, table, number)


@table_watched
def watch_record(request, table, number):
    """A finished deal's record for its spectators: every hand as dealt, once they are
    no secret."""
    return withheld_response(request, table, number) or record_response(request, table, number)


@seat_page
@require_GET
def seat_record(request, seat, number):
    return record_response(request, seat.table, number)


def record_response(request, table, number):
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    if not deal.is_over:
        # The record holds every hand as dealt: not while the deal is being played.
        return refused_page(request, _("The record can be downloaded once the deal is over."), 409)
    deal.table = table
    response = JsonResponse(
        selectors.record(deal), json_dumps_params={"ensure_ascii": False, "indent": 1}
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{table.game}-{table.pk}-deal-{deal.number}.json"'
    )
    return response


# -- a deal's replay ----------------------------------------------------------------------------


@table_get
def deal_replay(request, table, number):
    return replay_response(request, table, number)


@table_watched
def watch_replay(request, table, number):
    """A finished deal's replay for its spectators: every hand open, once no secret."""
    return withheld_response(request, table, number) or replay_response(
        request, table, number, spectator=True
    )


def withheld_response(request, table, number):
    """The refusal of a deal kept from the spectators (other tables are still to play it),
    or None."""
    shown = selectors.deals_shown_to_spectators(table)
    if not selectors.withheld_from_spectators(number, shown):
        return None
    deal = table.deals.filter(number=number).only("number", "is_over").first()
    if deal is None:
        raise Http404
    fixed = selectors.fixed_deals(table, deal)
    return refused_page(request, withheld_text(number, fixed, over=deal.is_over), 403)


@seat_page
@require_GET
def seat_replay(request, seat, number):
    return replay_response(request, seat.table, number, spectator=True)


def replay_response(request, table, number, spectator=False):
    deal = table.deals.filter(number=number).first()
    if deal is None:
        raise Http404
    if not deal.is_over:
        # Every hand open: not while the deal is being played.
        return refused_page(request, _("The replay can be shown once the deal is over."), 409)
    try:
        step = int(request.GET.get("step") or 0)
    except ValueError:
        return refused_page(request, _("There is no such step."), 400)
    deal.table = table
    page = replay_steps.replay_page(
        selectors.record(deal), step, selectors.names(table), table=table, deal=deal
    )
    return render_replay(request, page, spectator=spectator)


def render_replay(request, page, *, error=None, status=200, spectator=False):
    context = {f.name: getattr(page, f.name) for f in fields(page)} if page else {}
    context.update(
        replay=page, error=error, spectator=spectator, limit_kib=replay_steps.LIMIT // 1024
    )
    template = f"{REPLAY}#replay" if request.htmx else REPLAY
    return render(request, template, context, status=status)


# -- an uploaded record's replay ----------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def replay_upload(request):
    """Anyone may replay a deal record of his own: the file is read (size limited) and
    checked as ``manage.py replay`` reads and checks it; the page carries it from step to
    step, checked again each time, and nothing is stored."""
    if request.method == "GET":
        return render_replay(request, None)
    upload = request.FILES.get("file")
    name = upload.name if upload is not None else request.POST.get("name", "")
    name = name[:SHOWN_VALUE] or _("The record")
    try:
        step = int(request.POST.get("step") or 0)
    except ValueError:
        return render_replay(request, None, status=400, error=_("There is no such step."))
    try:
        if upload is not None:
            text = read_text(upload, replay_steps.LIMIT)
        elif "record" in request.POST:  # a step of a record the page carries
            text = read_text(io.BytesIO(request.POST["record"].encode()), replay_steps.LIMIT)
        else:
            return render_replay(
                request, None, status=400, error=_("Choose a deal record to upload.")
            )
        record = parse(text)
        page = replay_steps.replay_page(
            record,
            step,
            upload=replay_steps.Upload(
                json.dumps(record, ensure_ascii=False, separators=(",", ":")), name
            ),
        )
    except (InvalidRecord, Unreadable) as exc:  # worded as manage.py replay words them
        error = _("%(file)s: not a valid record: %(reason)s") % {
            "file": name,
            "reason": message_text(exc, as_written=True),
        }
    except IllegalRecordAction as exc:
        error = _("%(file)s: illegal action %(index)s %(action)s: %(reason)s") % {
            "file": name,
            "index": exc.index,
            "action": shown_action(exc.action),
            "reason": message_text(exc.reason, as_written=True),
        }
    else:
        return render_replay(request, page)
    return render_replay(request, None, error=error, status=400)


def shown_action(action) -> str:
    """An action as the record writes it, cut short if it is long."""
    text = json.dumps(action, ensure_ascii=False)
    return text if len(text) <= SHOWN_VALUE else text[: SHOWN_VALUE - 1] + "…"
