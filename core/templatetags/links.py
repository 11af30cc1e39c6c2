from django import template

from core.links import shut_out

register = template.Library()


@register.inclusion_tag("core/_shut_out.html", takes_context=True)
def phones_shut_out(context):
    """Above links handed to phones: why the room's phones cannot open them, if they cannot."""
    return {"reason": shut_out(context["request"])}
