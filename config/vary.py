"""Every answer says it depends on the ``HX-Request`` header.

A page and its htmx partial may share one address (a table page fetches itself with htmx):
without ``Vary: HX-Request`` a browser's cache could keep the partial under the page's
address, and the Back button would then show it as a bare, unstyled page.
"""

from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin


class VaryOnHtmxMiddleware(MiddlewareMixin):
    """Sync and async alike (MiddlewareMixin), so that it costs no thread hop under ASGI."""

    def process_response(self, request, response):
        patch_vary_headers(response, ("HX-Request",))
        return response
