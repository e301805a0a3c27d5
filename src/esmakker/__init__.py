"""esmakker: software for Danish call-ace whist (Esmakker Whist)."""

__version__ = "0.1.0"
