"""cambio/_types.py is generated from ../../openapi.json by tools/generate_types.py: this fails when
openapi.json changed and the generator was not run again (or the file was edited by hand)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import cambio
from cambio import _types

HERE = Path(__file__).resolve().parent.parent
spec = importlib.util.spec_from_file_location("generate_types", HERE / "tools" / "generate_types.py")
generate_types = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate_types)  # type: ignore[union-attr]


def test_the_committed_types_are_what_openapi_json_generates():
    committed = (HERE / "cambio" / "_types.py").read_text(encoding="utf-8")
    assert generate_types.OPENAPI == HERE.parent.parent / "openapi.json"
    assert committed == generate_types.render(), "openapi.json changed: run `python3 tools/generate_types.py` in clients/python and commit cambio/_types.py"


def test_every_record_has_the_schemas_properties_as_snake_case_attributes():
    openapi = json.loads((HERE.parent.parent / "openapi.json").read_text(encoding="utf-8"))
    schemas = openapi["components"]["schemas"]
    for name in generate_types.Generator(openapi).records:
        record = getattr(_types, name)
        assert dataclasses.is_dataclass(record) and record.__dataclass_params__.frozen
        assert [api for _, api, _ in record.__api_fields__] == list(schemas[name]["properties"]), name
        assert [f.name for f in dataclasses.fields(record)] == [generate_types.snake(p) for p in schemas[name]["properties"]], name
        assert getattr(cambio, name) is record
