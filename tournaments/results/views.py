"""Correcting a typed sheet, for directors and scorers: a table's rows, and one row corrected
as the typed sheet shows it, with a reason, its history (who, when, why, old → new) and an
earlier version put back. Parse, call one service, render; a refusal keeps what was typed,
its reason beside the row, and changes nothing."""

from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from club.roles import allowed, signed_in
from club.services import ServiceError, Stale
from core.wording import refusal_text
from games import registry

from .. import roles
from ..models import RoundTable, SheetRow
from ..pages import tournament_for
from ..run.forms import RowInputError
from . import selectors as results_selectors
from . import services as results_services
from .forms import ROW, CorrectionForm, RevertForm, row_form, typed_row

TEMPLATE = "tournaments/director/row.html"


def row_url(tournament, table, index: int, anchor: str = "") -> str:
    url = reverse("tournament-row", args=[tournament.key, table.pk, index])
    return f"{url}#{anchor}" if anchor else url


def page_or_404(tournament, pk: int, index: int) -> results_selectors.RowPage:
    try:
        return results_selectors.row_page(tournament, pk, index)
    except (RoundTable.DoesNotExist, SheetRow.DoesNotExist):
        raise Http404 from None


def labels(layout) -> dict[str, str]:
    return {spec["key"]: _(spec["label"]) for spec in layout.fields}


def row_refusal(exc, page, row: int | None = None) -> str:
    """A refusal of the row, said beside it: the row it names, seats from 1 with players."""
    text = refusal_text(exc, page.names, labels(page.layout))
    row = row or getattr(exc, "row", None)
    return _("Row %(row)s: %(reason)s") % {"row": row, "reason": text} if row else text


def render_row(
    request, page, *, form=None, sheet=None, row_error=None, error=None, revert=None, status=200
):
    """The row's page: ``form`` and ``sheet`` as posted (or the row as stored), ``revert`` a
    refused revert's form, shown at its version."""
    form = form or CorrectionForm(initial={"seen": results_services.row_version(page.row)})
    sheet = sheet or row_form(page.layout, saved=page.row.data)
    seen = form["seen"].value()
    closed = results_services.rows_closed(page.table)
    history = []
    for version in page.versions:
        revertible = not (version.current or closed or version.history_id is None)
        if revert is not None and revert.fields["version"].initial == version.history_id:
            history.append((version, revert))
        elif revertible:
            history.append(
                (version, RevertForm(version=version.history_id, initial={"seen": seen}))
            )
        else:
            history.append((version, None))
    context = {
        "page": page,
        "tournament": page.tournament,
        "table": page.table,
        "row": page.row,
        "layout": page.layout,
        "game": registry.game(page.tournament.game),
        "form": form,
        "line": sheet.lines(ROW, row_error)[0],
        "error": error,
        "history": history,
        "closed": closed and refusal_text(closed),
    }
    return render(request, TEMPLATE, context, status=status)


@require_GET
@allowed(signed_in)
def table_rows(request, key, pk):
    """A table's rows in words, each linked to its correction."""
    tournament = tournament_for(request, key, roles.scores)
    try:
        table, layout = results_selectors.table_of(tournament, pk)
    except RoundTable.DoesNotExist:
        raise Http404 from None
    closed = results_services.rows_closed(table)
    return render(
        request,
        "tournaments/director/rows.html",
        {
            "tournament": tournament,
            "table": table,
            "layout": layout,
            "closed": closed and refusal_text(closed),
            "lines": results_selectors.table_rows(table, layout),
            "heads": [_(spec["label"]) for spec in layout.fields],
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@allowed(signed_in)
def row(request, key, pk, index):
    """The row as the typed sheet shows it, corrected with a reason."""
    tournament = tournament_for(request, key, roles.scores)
    page = page_or_404(tournament, pk, index)
    if results_services.rows_closed(page.table):
        return render_row(request, page, status=409)
    if request.method != "POST":
        return render_row(request, page)
    form = CorrectionForm(request.POST)
    sheet = row_form(page.layout, data=request.POST)
    try:
        data = typed_row(sheet)
    except RowInputError as exc:
        form.is_valid()  # its reason's error too
        return render_row(
            request,
            page,
            form=form,
            sheet=sheet,
            status=400,
            row_error=row_refusal(exc, page, page.row.index),
        )
    if not form.is_valid():
        return render_row(request, page, form=form, sheet=sheet, status=400)
    try:
        results_services.correct_row(
            row=page.row,
            data=data,
            reason=form.cleaned_data["reason"],
            user=request.user,
            seen=form.cleaned_data["seen"],
        )
    except Stale as exc:
        return stale(request, tournament, page, exc, form.cleaned_data["reason"])
    except ServiceError as exc:
        return render_row(
            request,
            page,
            form=form,
            sheet=sheet,
            status=exc.status,
            row_error=row_refusal(exc, page),
        )
    return redirect(row_url(tournament, page.table, index, "history"))


def stale(request, tournament, page, exc, reason: str):
    """The row as it is now, with its history: what the page showed is out of date."""
    page = page_or_404(tournament, page.table.pk, page.row.index)
    form = CorrectionForm(
        initial={"seen": results_services.row_version(page.row), "reason": reason}
    )
    return render_row(request, page, form=form, error=refusal_text(exc), status=exc.status)


@require_POST
@allowed(signed_in, pages=False)
def revert(request, key, pk, index):
    """An earlier version of the row put back, with a reason."""
    tournament = tournament_for(request, key, roles.scores)
    page = page_or_404(tournament, pk, index)
    if results_services.rows_closed(page.table):
        return render_row(request, page, status=409)
    shown = {version.history_id for version in page.versions if not version.current}
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    if version not in shown:
        return render_row(request, page, status=400, error=_("This row has no such version."))
    form = RevertForm(request.POST, version=version)
    if not form.is_valid():
        return render_row(request, page, revert=form, status=400)
    try:
        results_services.revert_row(
            row=page.row,
            history_id=version,
            reason=form.cleaned_data["reason"],
            user=request.user,
            seen=form.cleaned_data["seen"],
        )
    except Stale as exc:
        return stale(request, tournament, page, exc, "")
    except ServiceError as exc:
        form.add_error(None, row_refusal(exc, page))
        return render_row(request, page, revert=form, status=exc.status)
    return redirect(row_url(tournament, page.table, index, "history"))
