"""The benchmarks of ``make bench`` that are not management commands:
``python -m bench.live``, ``bench.fanout``, ``bench.seats``, ``bench.robots``,
``bench.ratings`` and ``bench.browser`` (``bench.club`` is the throw-away club of the
served ones)."""
