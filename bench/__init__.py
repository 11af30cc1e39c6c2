"""The benchmarks of ``make bench`` that are not management commands:
``python -m bench.live``, ``bench.fanout``, ``bench.seats`` and ``bench.robots``
(``bench.club`` is the throw-away club of the first three)."""
