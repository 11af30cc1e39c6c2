from django.apps import AppConfig


class DuelConfig(AppConfig):
    name = "tests.duel"
    label = "duel"
    verbose_name = "Duel"
