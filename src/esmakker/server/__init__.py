"""The online game server: tables, seats, bots and the live WebSocket protocol (issue 6).

``create_app(settings)`` in ``app.py`` builds the FastAPI application; ``hub.py`` holds
the tables, ``store.py`` writes every action before it is acknowledged, ``codec.py``
and ``errors.py`` define the frames of ``docs/protocol.md``.
"""
