"""The benchmarks of ``make bench`` that are not management commands:
``python -m bench.live``, ``bench.fanout`` and ``bench.robots`` (``bench.club`` is the
throw-away club of the first two)."""
