"""Regenerate the operation lists of ``conformance/data`` (``./kit generate``; ``--check`` only compares).

A build tool beside its output, like ``proto/generate.py``: it imports the reference server to read its
API description; the harness only ever reads the JSON files it writes. The reference's rows carry, after
the tag, the declared success status and body (``name``, ``[name]``, ``a|b`` or ``""`` without a JSON
body) of its OpenAPI 3 document, where success bodies refer to ``schema_<file>`` components and the
``x-success-status`` extension names the status.

Gitea's list comes from ``../shared/reference/gitea-1.27-operations-detail.md``, whose operations are
grouped by tag in alphabetical order (admin, issue, miscellaneous, notification, organization, package,
repository, settings, user), each group sorted by operation id: a new group starts where the order
falls back. An operation Gitea lists under two tags keeps the first.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from conformance.coverage import METHODS  # noqa: E402
from conformance.operations import GITEA_FILE, GITEA_VERSION, REFERENCE_FILE  # noqa: E402
from reference_server.endpoints import TAGS as GITEA_TAGS  # noqa: E402 - the build tool alone reads the server
from reference_server.misc.openapi_schemas import SUCCESS_STATUS_KEY  # noqa: E402

GITEA_SOURCE = ROOT.parent / "shared" / "reference" / "gitea-1.27-operations-detail.md"
SCHEMA_COMPONENT = "schema_"
"""The OpenAPI 3 document's components converted from ``schemas/<name>.json`` are ``schema_<name>``."""
_LINE = re.compile(r"^- `(?P<method>[A-Z]+) (?P<path>\S+)` \((?P<operation>\w+)\)")


def _camel(operation_id: str) -> str:
    """``issue_add_label`` as Gitea spells it (``issueAddLabel``): the order the groups are sorted in."""
    first, *rest = operation_id.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def gitea_document(text: str) -> dict[str, Any]:
    """Gitea's operations with their tags, from the reference notes' operation list."""
    found = [match.groupdict() for line in text.splitlines() if (match := _LINE.match(line))]
    groups: list[list[dict[str, str]]] = [[]]
    for entry in found:
        if groups[-1] and _camel(entry["operation"]) < _camel(groups[-1][-1]["operation"]):
            groups.append([])
        groups[-1].append(entry)
    if len(groups) != len(GITEA_TAGS):
        raise SystemExit(f"expected {len(GITEA_TAGS)} tag groups in {GITEA_SOURCE.name}, found {len(groups)}")
    rows: dict[tuple[str, str], list[str]] = {}
    for tag, group in zip(GITEA_TAGS, groups, strict=True):
        for entry in group:
            rows.setdefault((entry["method"], entry["path"]), [entry["method"], entry["path"], entry["operation"], tag])
    return {"source": f"Gitea {GITEA_VERSION}", "operations": sorted(rows.values(), key=lambda row: (row[1], row[0]))}


def _schema_name(schema: dict[str, Any]) -> str:
    """``{"$ref": "#/components/schemas/schema_user"}`` -> ``user``."""
    ref = str(schema.get("$ref", ""))
    name = ref.rsplit("/", 1)[-1]
    if not name.startswith(SCHEMA_COMPONENT):
        raise SystemExit(f"a success body refers to {ref!r}, not to a schemas/ file")
    return name.removeprefix(SCHEMA_COMPONENT)


def _spec(schema: dict[str, Any]) -> str:
    """A success body's schema as ``name``, ``[name]`` or ``a|b``, the notation of ``conformance.operations``."""
    if "anyOf" in schema:
        return "|".join(_spec(choice) for choice in schema["anyOf"])
    if schema.get("type") == "array":
        return f"[{_schema_name(schema['items'])}]"
    return _schema_name(schema)


def declared_answer(responses: dict[str, Any]) -> list[Any]:
    """``[status, spec]`` of an operation's declared success (``spec`` empty without a JSON body), or
    ``[null, ""]`` when the description declares none."""
    status = responses.get(SUCCESS_STATUS_KEY)
    if status is None:
        return [None, ""]
    schema = ((responses.get(str(status)) or {}).get("content") or {}).get("application/json", {}).get("schema")
    return [int(status), _spec(schema) if schema else ""]


def reference_document() -> dict[str, Any]:
    """The reference server's operations with their tags, from its own Swagger document, and their declared
    success answers, from its OpenAPI 3 document."""
    from reference_server.app import create_app  # noqa: PLC0415 - the build tool alone reads the server
    from reference_server.config import Config  # noqa: PLC0415
    from reference_server.misc import apidoc  # noqa: PLC0415

    with tempfile.TemporaryDirectory(prefix="conformance-apidoc-") as directory:
        app = create_app(Config(data_dir=Path(directory) / "data", admin_token="0" * 40))
        try:
            with app.app_context():
                swagger = apidoc.swagger2(app, app.extensions["forge"])
                openapi = apidoc.openapi3(app, app.extensions["forge"])
        finally:
            app.extensions["forge"].db.close()
    rows = [
        [
            method.upper(),
            path,
            str(operation["operationId"]),
            str((operation.get("tags") or ["misc"])[0]),
            *declared_answer(openapi["paths"][path][method]["responses"]),
        ]
        for path, methods in swagger["paths"].items()
        for method, operation in methods.items()
        if method in METHODS
    ]
    return {"source": "the reference server's API description", "operations": sorted(rows, key=lambda r: (r[1], r[0]))}


def _text(document: dict[str, Any]) -> str:
    lines = ",\n".join("    " + json.dumps(row) for row in document["operations"])
    return f'{{\n  "source": {json.dumps(document["source"])},\n  "operations": [\n{lines}\n  ]\n}}\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when a file is out of date")
    options = parser.parse_args(argv)
    wanted = {REFERENCE_FILE: _text(reference_document())}
    if GITEA_SOURCE.exists():
        wanted[GITEA_FILE] = _text(gitea_document(GITEA_SOURCE.read_text(encoding="utf-8")))
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    if options.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run ./kit generate", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(wanted[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
