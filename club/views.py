"""The members' pages, without the Django admin: an organiser's list of the club's accounts and
players (invite, link and unlink, a new password, roles), and every member's own account page (his
password, his name at the club). Parse the input, call one service (``club.members``),
render; a refusal comes back as the page with its message (role="alert") and a 4xx status.

A new member's first password is generated and shown once, on the answer to the director's
POST, rather than sent as a one-time sign-in link: the club has no e-mail, the organiser
hands it over at the table, and a password needs no token to store, expire or spend. Django
keeps only its hash; the answer is marked not to be cached, and the member changes it on
his account page.
"""

from axes.helpers import get_client_ip_address
from axes.utils import reset as reset_sign_in_attempts
from django import forms
from django.contrib.auth import authenticate, get_user_model, update_session_auth_hash
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.views import PasswordChangeView
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.cache import add_never_cache_headers
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.wording import refusal_text

from . import members, roles
from .models import Player
from .roles import allowed
from .services import ServiceError

organiser = allowed(roles.is_organiser)
organiser_post = allowed(roles.is_organiser, pages=False)
signed_in = allowed(roles.signed_in)

PLAYER_ERRORS = {
    "required": _("Choose a club player."),
    "invalid_choice": _("That player is not in the club's list."),
}


class InviteForm(forms.Form):
    """A new member: his user name, his club player (one without an account, or a new
    name), his roles."""

    username = forms.CharField(label=_("User name"), max_length=members.USERNAME_LENGTH)
    player = forms.ModelChoiceField(
        Player.objects.all(),
        required=False,
        empty_label="—",
        label=_("A club player without an account"),
        error_messages=PLAYER_ERRORS,
    )
    name = forms.CharField(
        required=False, max_length=members.NAME_LENGTH, label=_("or a new player")
    )
    roles = forms.MultipleChoiceField(
        label=_("Roles"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        choices=list(members.ROLES.items()),
        error_messages={"invalid_choice": _("%(value)s is not a role of the club.")},
    )

    def __init__(self, data=None):
        super().__init__(data, prefix="invite", initial={"roles": [roles.PLAYER]})
        self.fields["player"].widget.choices = [("", "—")] + [
            (p.pk, p.name) for p in Player.objects.filter(user=None).order_by("name")
        ]

    def clean(self):
        cleaned = super().clean()
        name = " ".join((cleaned.get("name") or "").split())
        player = cleaned.get("player")
        if bool(player) == bool(name) and "player" not in self.errors:
            raise forms.ValidationError(_("Choose a club player or type a new name."))
        cleaned["joining"] = player or name
        return cleaned


class RolesForm(forms.Form):
    roles = forms.MultipleChoiceField(
        required=False,
        choices=list(members.ROLES.items()),
        error_messages={"invalid_choice": _("%(value)s is not a role of the club.")},
    )


class LinkForm(forms.Form):
    player = forms.ModelChoiceField(Player.objects.all(), error_messages=PLAYER_ERRORS)


class NameForm(forms.Form):
    name = forms.CharField(label=_("Your name at the club"), max_length=members.NAME_LENGTH)


def form_errors(form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


def account_or_404(pk: int):
    account = get_user_model().objects.filter(pk=pk).first()
    if account is None:
        raise Http404
    return account


# -- the organiser's page -----------------------------------------------------------------


@sensitive_variables("shown")
def render_members(request, *, error=None, status=200, invite_form=None, shown=None):
    accounts = (
        get_user_model()
        .objects.order_by("username")
        .prefetch_related("groups")
        .select_related("club_player")
    )
    rows = [
        {
            "account": account,
            "player": getattr(account, "club_player", None),
            "roles": members.role_labels(group.name for group in account.groups.all()),
            "role_names": {group.name for group in account.groups.all()},
            "admin": account.is_staff or account.is_superuser,
        }
        for account in accounts
    ]
    context = {
        "rows": rows,
        "error": error,
        "shown": shown,
        "free_players": Player.objects.filter(user=None).order_by("name"),
        "invite_form": invite_form or InviteForm(),
        "club_roles": list(members.ROLES.items()),
    }
    response = render(request, "members/members.html", context, status=status)
    if shown:  # a password: not to be kept by the browser or a proxy
        add_never_cache_headers(response)  # no-cache, no-store, private
    return response


@require_GET
@organiser
def members_page(request):
    return render_members(request)


@require_POST
@organiser_post
@sensitive_variables("password")
def invite(request):
    form = InviteForm(request.POST)
    if not form.is_valid():
        return render_members(request, status=400, invite_form=form)
    data = form.cleaned_data
    try:
        account, password = members.invite(
            username=data["username"], player=data["joining"], roles=data["roles"], by=request.user
        )
    except ServiceError as exc:
        return render_members(request, error=refusal_text(exc), status=exc.status, invite_form=form)
    return render_members(
        request, shown={"username": account.get_username(), "password": password, "invited": True}
    )


def member_write(handler):
    """A POST about one account (``pk``): the handler calls one service and returns what to
    show (a dict) or nothing (back to the list)."""

    @require_POST
    @organiser_post
    @sensitive_variables("shown")
    def view(request, pk):
        account = account_or_404(pk)
        try:
            shown = handler(request, account)
        except ServiceError as exc:
            return render_members(request, error=refusal_text(exc), status=exc.status)
        if shown:
            return render_members(request, shown=shown)
        return redirect(f"{reverse('members')}#account-{account.pk}")

    view.__name__ = handler.__name__
    return view


class FormRefused(ServiceError):
    """A form's own errors, already in the reader's language."""


@member_write
def link(request, account):
    form = LinkForm(request.POST)
    if not form.is_valid():
        raise FormRefused(form_errors(form))
    members.link(account=account, player=form.cleaned_data["player"], by=request.user)


@member_write
def unlink(request, account):
    members.unlink(account=account, by=request.user)


@member_write
@sensitive_variables("password")
def reset(request, account):
    password = members.reset_password(account=account, by=request.user)
    return {"username": account.get_username(), "password": password, "invited": False}


@member_write
def set_roles(request, account):
    form = RolesForm(request.POST)
    if not form.is_valid():
        raise FormRefused(form_errors(form))
    members.set_roles(account=account, roles=form.cleaned_data["roles"], by=request.user)


# -- every member's own -------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@signed_in
def account_page(request):
    player = members.player_of(request.user)
    form = NameForm(
        request.POST if request.method == "POST" else None,
        initial={"name": player.name if player else ""},
    )
    error, status = None, 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                members.rename(account=request.user, name=form.cleaned_data["name"])
            except ServiceError as exc:
                error, status = refusal_text(exc), exc.status
            else:
                return redirect(f"{reverse('account')}?saved=name")
    context = {
        "player": player,
        "form": form,
        "error": error,
        "roles": members.role_labels(request.user.groups.values_list("name", flat=True)),
        "saved": request.GET.get("saved"),
    }
    return render(request, "members/account.html", context, status=status)


class ThrottledPasswordChangeForm(PasswordChangeForm):
    """Django's form, whose old password is checked as a sign-in's is: django-axes counts a
    wrong one with the sign-in's, and while the name is locked out refuses even the right
    one (its lock-out page answers). A table's screen is shared: no place to guess it."""

    def __init__(self, user, *args, request=None, **kwargs):
        super().__init__(user, *args, **kwargs)
        self.request = request

    @sensitive_variables("old_password")
    def clean_old_password(self):
        old_password = self.cleaned_data["old_password"]
        checked = authenticate(
            self.request, username=self.user.get_username(), password=old_password
        )
        if checked is None or checked.pk != self.user.pk:
            raise forms.ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class PasswordChange(PasswordChangeView):
    """Django's own form (the old password, the new one twice, the validators), its old
    password throttled as sign-in is; the new password is saved through the service, and
    this session stays signed in."""

    template_name = "members/password_change.html"
    success_url = format_lazy("{}?saved=password", reverse_lazy("account"))
    form_class = ThrottledPasswordChangeForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "request": self.request}

    @sensitive_variables("form")
    def form_valid(self, form):
        members.change_password(account=form.user, password=form.cleaned_data["new_password1"])
        update_session_auth_hash(self.request, form.user)
        # as a sign-in that succeeds (AXES_RESET_ON_SUCCESS): the wrong tries before it lapse
        reset_sign_in_attempts(
            ip=get_client_ip_address(self.request), username=form.user.get_username()
        )
        return HttpResponseRedirect(self.get_success_url())

    def form_invalid(self, form):
        response = super().form_invalid(form)
        response.status_code = 400
        return response
