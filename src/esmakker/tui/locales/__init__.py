"""Message catalogues, one module per language (``MESSAGES``: key to template)."""
