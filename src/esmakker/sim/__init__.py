"""The simulator: bots play many deals; summaries of the results; duplicate matches."""

from esmakker.sim.match import MatchResult, run_match
from esmakker.sim.runner import SimDeal, play_deal, play_out, simulate, simulate_deals, summarise

__all__ = [
    "MatchResult",
    "SimDeal",
    "play_deal",
    "play_out",
    "run_match",
    "simulate",
    "simulate_deals",
    "summarise",
]
