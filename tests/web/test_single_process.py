"""A server alone (no ``--redis-url``) loads none of the several-node code: no leases, no
relays, no Redis client; it serves every table itself."""

from __future__ import annotations

import subprocess
import sys
import textwrap

CLUSTER_ONLY = (
    "yahtzee.service.cluster.node",
    "yahtzee.service.cluster.lobby",
    "yahtzee.service.cluster.wire",
    "yahtzee.web.relay",
    "redis",
)


def test_a_server_alone_loads_no_cluster_code(tmp_path: object) -> None:
    script = textwrap.dedent(
        f"""
        import sys
        from fastapi.testclient import TestClient
        from yahtzee.web.app import create_app

        app = create_app("sqlite:///{tmp_path}/alone.db", bot_delay=0)
        with TestClient(app) as client:
            made = client.post("/api/tables", json={{"host": "Ann"}})
            assert made.status_code == 201, made.text
            table = made.json()["table"]["id"]
            assert client.get(f"/api/tables/{{table}}").status_code == 200
            health = client.get("/api/health").json()
            assert "node" not in health and "tables" not in health, health
        loaded = [m for m in {CLUSTER_ONLY!r} if m in sys.modules]
        print("loaded:", loaded)
        assert not loaded, loaded
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "loaded: []" in done.stdout
