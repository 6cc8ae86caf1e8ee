"""Benchmarks (not tests): ``python -m tests.bench`` runs every ``bench_*.py`` module's main()."""
