"""The members' addresses: the organisers' list of accounts, and each member's own page."""

from django.urls import path

from . import views

urlpatterns = [
    path("members/", views.members_page, name="members"),
    path("members/invite", views.invite, name="members-invite"),
    path("members/<int:pk>/link", views.link, name="members-link"),
    path("members/<int:pk>/unlink", views.unlink, name="members-unlink"),
    path("members/<int:pk>/reset", views.reset, name="members-reset"),
    path("members/<int:pk>/roles", views.set_roles, name="members-roles"),
    path("account/", views.account_page, name="account"),
    path("account/password/", views.PasswordChange.as_view(), name="password_change"),
]
