from django.apps import AppConfig


class DuelConfig(AppConfig):
    name = "tests.support.duel"
    label = "duel"
    verbose_name = "Duel"
