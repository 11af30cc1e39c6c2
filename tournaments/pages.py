"""What the tournaments' pages share, whoever reads them: the tournament behind an address
and who may open it, the director's page rendered (its writes and the check-in answer with
it), the options worded, an attachment. Every domain's views import this module and no
other domain's views."""

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import registry

from . import addresses, roles
from .check_in import selectors as check_in_selectors
from .models import Tournament
from .run import draft_selectors
from .run import selectors as run_selectors
from .run.forms import AdjustForm, EntrantForm, OfficialForm, RulingForm, SwapForm

ORDER_LABELS = {
    "match_points": gettext_lazy("match points"),
    "points": gettext_lazy("points"),
    "opponents": gettext_lazy("opponents' match points"),
    "wins": gettext_lazy("wins"),
    # a duplicate tournament's
    "percent": gettext_lazy("percentage"),
    "field": gettext_lazy("field figure"),
    "deals": gettext_lazy("deals played"),
}


def option_lines(game, options: dict) -> list[tuple[str, str]]:
    """The options as the new-table form words them: (label, value)."""
    fields = game.form.base_fields
    lines = []
    for key, value in options.items():
        if key == "players" or value is None:  # a table's size, not a tournament's option
            continue
        if isinstance(value, list):
            parts = [fields.get(f"{key.removesuffix('s')}_{n}") for n in range(1, len(value) + 1)]
            if all(parts):  # premiums: "First premium", "Second premium"
                lines.extend((str(f.label), str(v)) for f, v in zip(parts, value, strict=True))
            else:
                lines.append((key, ", ".join(map(str, value))))
            continue
        field = fields.get(key)
        lines.append((str(field.label) if field else key, option_value(field, value)))
    return lines


def option_value(field, value) -> str:
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    for choice, label in getattr(field, "choices", ()):
        if str(choice) == str(value):
            return str(label)
    return str(value)


def attachment(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


def tournament_or_404(key: str) -> Tournament:
    """Under a former key, the page redirects to its address under the key."""
    return addresses.tournament_or_404(key)


def tournament_for(request, key: str, check) -> Tournament:
    """The tournament, if ``check`` (``roles.directs``, ``roles.scores``) lets the member
    in; 403 otherwise."""
    tournament = tournament_or_404(key)
    if not check(request.user, tournament):
        raise PermissionDenied
    return tournament


def run_url(tournament: Tournament, anchor: str = "") -> str:
    url = reverse("tournament-run", args=[tournament.key])
    return f"{url}#{anchor}" if anchor else url


def render_run(request, tournament: Tournament, *, error=None, status=200, **forms):
    page = run_selectors.run_page(tournament)
    draft = page.draft
    officials = roles.officials(tournament)
    directors = [official for official in officials if official.role == roles.DIRECTOR]
    if tournament.duplicate and roles.directs(request.user, tournament):
        posted = forms.get("ruling_form")
        for round_ in page.rounds:
            if not round_.released:
                continue
            if posted is not None and posted.number == round_.number:
                round_.ruling_form = posted
            else:
                round_.ruling_form = RulingForm(
                    round_.number, round_.ruling_tables, seen=round_.rulings_version
                )
    context = {
        "page": page,
        "check_in": check_in_selectors.check_in_list(
            tournament,
            page.entrants,
            sum(1 for round_ in page.rounds if round_.released),
            {entrant.pk for entrant in draft.entrants} if draft else None,
        ),
        "quality": draft_quality(tournament, draft),
        "tournament": tournament,
        "game": registry.game(tournament.game),
        "error": error,
        "live": status == 200,  # a refusal answers at the form's address, not the page's
        "is_director": roles.directs(request.user, tournament),
        "officials": officials,
        "sole_director": directors[0].pk if len(directors) == 1 else None,  # stays
        "official_form": (forms.get("official_form") or OfficialForm(tournament))
        if roles.directs(request.user, tournament)
        else None,
        "enter_form": forms.get("enter_form") or EntrantForm(tournament),
        "adjust_form": forms.get("adjust_form") or AdjustForm(tournament),
        "swap_form": (forms.get("swap_form") or SwapForm(draft.model)) if draft else None,
    }
    return render(request, "tournaments/director/run.html", context, status=status)


def draft_quality(tournament: Tournament, draft) -> draft_selectors.DraftQuality | None:
    """The draft's repeats, each table's beside it on the page."""
    if draft is None:
        return None
    quality = draft_selectors.quality(draft_selectors.seated_rounds(tournament))
    if quality is not None:
        for table, lines in zip(draft.tables, quality.tables, strict=True):
            table.repeats = lines
    return quality
