from django.apps import AppConfig


class LeopardConfig(AppConfig):
    name = "games.leopard"
    label = "leopard"
    verbose_name = "Леопард"
