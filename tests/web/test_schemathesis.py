"""schemathesis against the served OpenAPI document: no request makes the server fail,
including bodies with NaN, Infinity and numbers too large for a float (which schemathesis
does not write: they are sent here to every operation that takes a body)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.server_process import ServerProcess

NON_FINITE = ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"]
FIELDS = ["host", "name", "level", "turn_timer", "rules", "hints", "seats"]


def test_no_server_errors(server: ServerProcess) -> None:
    found = Path(sys.executable).with_name("schemathesis")
    command = str(found) if found.exists() else shutil.which("schemathesis")
    assert command, "schemathesis is part of the test extra"
    result = subprocess.run(
        [
            command,
            "run",
            f"{server.base}/openapi.json",
            "--checks",
            "not_a_server_error",
            "--max-examples",
            "60",
            "--generation-deterministic",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-4000:]


def _bodies() -> list[str]:
    bodies = [
        '{"host": "A", "turn_timer": %s}',
        '{"host": "A", "seats": [{"kind": "bot", "level": %s}]}',
        "[%s]",
        "%s",
    ]
    bodies += ['{"%s": %%s}' % field for field in FIELDS]  # noqa: UP031 (a template)
    return [body % number for body in bodies for number in NON_FINITE]


def test_nan_and_infinity_bodies_are_refused_not_failed(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        made = http.post("/api/tables", json={"host": "Ann", "seats": [{"kind": "human"}]})
        host: dict[str, Any] = made.json()
        schema = http.get("/openapi.json").json()
        values = {"table_id": host["table"]["id"], "invite": host["invite"], "seat": "1"}
        auth = {"Authorization": f"Bearer {host['token']}", "content-type": "application/json"}
        operations = [
            (method, re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path))
            for path, methods in schema["paths"].items()
            for method, operation in methods.items()
            if "requestBody" in operation
        ]
        assert len(operations) >= 3  # create, join, hand to a bot
        for method, path in operations:
            for body in _bodies():
                answer = http.request(method, path, content=body, headers=auth)
                assert answer.status_code == 400, (method, path, body, answer.text)
                refusal = answer.json()
                assert set(refusal) == {"code", "message"}, refusal
        assert http.get(f"/api/tables/{host['table']['id']}").json()["status"] == "lobby"
