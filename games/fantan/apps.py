from django.apps import AppConfig


class FantanConfig(AppConfig):
    name = "games.fantan"
    label = "fantan"
    verbose_name = "Фантан"
