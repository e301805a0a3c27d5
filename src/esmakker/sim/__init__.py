"""The simulator: bots play many deals; summaries of the results."""

from esmakker.sim.runner import SimDeal, play_deal, simulate, simulate_deals, summarise

__all__ = ["SimDeal", "play_deal", "simulate", "simulate_deals", "summarise"]
