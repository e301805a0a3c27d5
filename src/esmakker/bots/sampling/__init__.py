"""Worlds a seat cannot tell from the real deal: ``sample_world(view, rng)`` (architecture 5.8).

A world is a full deal (every hand, the kitty in turning order, every card laid away)
replayed through the view's history, so a search bot can play it forward on the engine.
The unseen cards are dealt at random among the places they may be (``facts``): the
other hands (never a suit the seat has shown out of), the cards others laid away, and
the kitty. Cards the seat saw in the kitty follow the kitty to whoever took it. The
candidate is then replayed step by step (``deals``) and kept only if every step is legal
and the seat's view of it equals the view given: the seat's own hand, the auction, the
contract as it knows it, the partner if known, the tricks and its legal actions. So no
sampled world is impossible; a world that breaks a rule the placement does not model (a
called-card duty, a call of a card the declarer holds) is dealt again.

``sample_weighted`` draws worlds by importance resampling (``worlds``); ``sample_chain``
draws them from Metropolis chains that prefer worlds where the others chose as a model
of them (a ``Policy``) would have chosen (``chain``).

This is the only bots package that builds full states: search plays forward on worlds
made from a view, never on the real deal.
"""

from esmakker.bots.sampling.chain import ChainMemory, Policy, has_reads, sample_chain
from esmakker.bots.sampling.facts import called_card
from esmakker.bots.sampling.worlds import (
    Likelihood,
    SamplingError,
    World,
    sample_weighted,
    sample_world,
    sample_worlds,
)

__all__ = [
    "ChainMemory",
    "Likelihood",
    "Policy",
    "SamplingError",
    "World",
    "called_card",
    "has_reads",
    "sample_chain",
    "sample_weighted",
    "sample_world",
    "sample_worlds",
]
