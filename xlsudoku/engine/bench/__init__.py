"""Reproducible benchmarks (tools, not domain): one module per subject.

``common`` (timing, samples, QQWing, load), ``solver`` (exact solver and fill), ``generator``,
``lowclue`` (reach), ``grading`` (speed and agreement), ``techniques`` (time per finder).
Each is a command of ``xlsudoku bench``; none is imported by the domain modules.
"""
