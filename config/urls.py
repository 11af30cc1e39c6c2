from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

# The admin speaks of the club, not of Django.
admin.site.site_title = _("Card club")
admin.site.site_header = _("Card club: administration")
admin.site.index_title = _("Administration")


def favicon(request):
    """Browsers ask for /favicon.ico where a page names no icon (the admin's): the club's."""
    return redirect(static("favicon.svg"), permanent=True)


urlpatterns = [
    path("favicon.ico", favicon),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("ratings.urls")),  # before the tournaments': a player's former address
    path("tournaments/", include("tournaments.urls")),
    # a table's entry link: its players report its rows
    path("e/", include("tournaments.results.entry_urls")),
    path("", include("club.urls")),
    path("", include("games.urls")),
]
