from django.apps import AppConfig


class VarietyConfig(AppConfig):
    name = "games.variety"
    label = "variety"
    verbose_name = "Выборы"
