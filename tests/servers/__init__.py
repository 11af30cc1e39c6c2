"""Against real daphne processes (marker ``servers``)."""
