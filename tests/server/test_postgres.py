"""The store on PostgreSQL: the same code as on SQLite (run with ESMAKKER_TEST_POSTGRES=URL).

Example: ``ESMAKKER_TEST_POSTGRES=postgresql+psycopg://esmakker:esmakker@localhost/esmakker``
(needs a driver such as ``psycopg[binary]``). The database's tables are dropped first.
"""

from __future__ import annotations

import asyncio
import json
import os
import random

import pytest

from esmakker.server import models
from esmakker.server.hub import Hub, TableConfig
from esmakker.server.settings import Settings
from esmakker.server.store import Store, make_engine

URL = os.environ.get("ESMAKKER_TEST_POSTGRES", "")
pytestmark = pytest.mark.skipif(not URL, reason="set ESMAKKER_TEST_POSTGRES to a PostgreSQL URL")


def test_a_table_is_restored_from_postgresql() -> None:
    engine = make_engine(URL)
    models.metadata.drop_all(engine)
    engine.dispose()

    async def main() -> None:
        hub = Hub(Store(URL), Settings())
        room, _ = hub.create(TableConfig())
        for name in ("anna", "bo", "carl", "dora"):
            await room.join(name)
        await room.start()
        rng = random.Random(3)
        for i in range(120):
            table = room.table
            assert table is not None
            seat = table.to_act
            assert seat is not None
            legal = table.view(seat).to_json()["legal_actions"]
            frame = {"v": 1, "type": "act", "id": f"a{i}", "action": rng.choice(legal)}
            key = room.index_of(table.player_at(seat))
            assert (await room.handle(key, json.dumps(frame)))[0]["type"] == "ack"
        again = Hub(Store(URL), Settings())
        again.restore()
        copy = again.find(room.id)
        assert copy.snapshot(1) == room.snapshot(1)
        assert copy.hub.store.records(room.id) == hub.store.records(room.id)
        await again.shutdown()
        await hub.shutdown()

    asyncio.run(main())
