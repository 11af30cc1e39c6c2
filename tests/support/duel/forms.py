from games.forms import TableForm


class DuelTableForm(TableForm):
    seats = 2
    min_seats = 2
    seating_error = "Seat two players."  # a test game: not translated

    def options(self) -> dict:
        return {}
