"""The site's own pages: the front page, the health check and the games' rules for
players."""

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import select_template
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from core import health

from .. import registry, table_lists

HOME_TABLES = 5  # a member's latest tables on the front page


def home(request):
    """The games to start a table of, and a member's latest tables (the list has the rest)."""
    rows, seated = [], []
    if request.user.is_authenticated:
        user = request.user
        rows = table_lists.table_rows(user, table_lists.tables_of(user)[:HOME_TABLES])
        seated = table_lists.my_seats(user, HOME_TABLES)
    return render(
        request, "games/home.html", {"rows": rows, "seated": seated, "games": registry.games()}
    )


@require_GET
def healthz(request):
    """For a monitor or a proxy: "ok" when the database answers (and the channel layer's
    Redis, where one is set), else 503 naming what is down (the log says why)."""
    down = health.down()
    if down:
        return HttpResponse("down: " + ", ".join(down), status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


@require_GET
def rules(request, game):
    """A game's rules for players, public: the page's frame is shared, the text is the game's
    own, written in the reader's language (``Game.rules_templates``)."""
    try:
        game = registry.game(game)
        text = select_template(game.rules_templates(get_language())).template.name
    except (registry.UnknownGame, TemplateDoesNotExist):
        raise Http404 from None
    return render(
        request,
        "games/rules.html",
        {
            "game": game,
            "games": registry.games(),
            "text": text,
            # the options form, unbound: the text names each option by the form's own label
            "form": game.form(),
        },
    )
