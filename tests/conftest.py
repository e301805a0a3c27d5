"""Shared test configuration: hypothesis profiles (``dev`` locally, ``ci`` in CI)."""

import os

from hypothesis import HealthCheck, settings

from esmakker.bots import endgame

# The strong bot's compiled ending compiles the kernel for 10-25 s in every process; the
# tests that want it ask for it (``compiled_solver=True``), the rest use the plain solver.
endgame.COMPILED = False

settings.register_profile("dev", max_examples=60, deadline=None)
settings.register_profile(
    "ci",
    max_examples=120,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("ci" if os.environ.get("CI") else os.environ.get("HYPOTHESIS_PROFILE", "dev"))

collect_ignore = ["golden/make_golden.py"]
