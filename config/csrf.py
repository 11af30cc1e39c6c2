"""The CSRF cookie renewed by the pages, not by every htmx answer.

Django sends the CSRF cookie again with every response that uses the token, to renew its
expiry. Every answer to a move carries forms, so every move's answer would carry the cookie
too, and the browser stores it before it hands the answer to the page, on the way of every
move (docs/design/table-regions.md#the-csrf-cookie). An htmx answer leaves the cookie the
browser sent as it is; the pages still renew it, and an htmx answer still sets it when the
browser sent none or the token changed (signing in rotates it). It clears the flag by which
Django's CsrfViewMiddleware says the cookie is to be sent (``CSRF_COOKIE_NEEDS_UPDATE``);
tests/club/test_csrf_cookie.py checks that Django still reads it.
"""

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin


class CsrfCookieOnPagesMiddleware(MiddlewareMixin):
    """Below Django's CsrfViewMiddleware (its answer is seen before Django's sets the cookie)
    and django-htmx's (``request.htmx``)."""

    def process_response(self, request, response):
        if (
            request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
            and request.htmx
            and request.COOKIES.get(settings.CSRF_COOKIE_NAME) == request.META.get("CSRF_COOKIE")
        ):
            request.META["CSRF_COOKIE_NEEDS_UPDATE"] = False
        return response
