"""The benchmarks of ``make bench`` that are not management commands:
``python -m bench.live``, ``bench.fanout``, ``bench.seats``, ``bench.robots``,
``bench.seating``, ``bench.ratings`` and ``bench.browser`` (``bench.club`` is the throw-away
club of the served ones). Each writes its figures into its section of
``docs/benchmarks/latest.md`` (``bench.figures``; ``bench.sections`` makes the management
commands'), and ``bench.suite`` the test suite's, given on its command line."""
