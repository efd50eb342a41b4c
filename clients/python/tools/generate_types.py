#!/usr/bin/env python3
"""Writes cambio/_types.py from the repository's openapi.json (standard library only).

    python3 tools/generate_types.py           # rewrite cambio/_types.py
    python3 tools/generate_types.py --check   # exit 1 when the committed file is out of date

Every record the API returns becomes a frozen dataclass with snake_case attributes; every request
body becomes a table of its fields (the client's keyword arguments map to them); the event types
and error codes become Literal types. tests/test_types_drift.py fails when openapi.json changed
and this was not run again.
"""

from __future__ import annotations

import json
import keyword
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
OPENAPI = HERE.parent.parent.parent / "openapi.json"
OUTPUT = HERE.parent / "cambio" / "_types.py"
# The typing names the generated module may use; it imports those it does.
TYPING_NAMES = ("Any", "Dict", "List", "Literal", "Optional", "Tuple", "Type")
TYPING_IMPORTS_PLACEHOLDER = "<typing imports>"

#: Request bodies: schema name → the client call that sends it.
REQUESTS = {
    "CreateDepositRequest": "deposits.create",
    "CreateWithdrawalRequest": "withdrawals.create",
    "CreateQuoteRequest": "conversions.quote",
    "CreateConversionRequest": "conversions.create",
    "WebhookRequest": "webhooks.create / webhooks.update",
}
#: JSON scalar types → the attribute's Python type (a JSON number is kept exact as a Decimal).
SCALARS = {"string": "str", "integer": "int", "number": "Decimal", "boolean": "bool"}
#: Names for objects written inline in openapi.json (otherwise Parent + property name).
INLINE_NAMES = {
    ("Balance", "balances"): "CurrencyBalance",
    ("Deposit", "transactions"): "DepositTransaction",
    ("Deposit", "split"): "DepositSplit",
    ("Company", "rateLimit"): "RateLimit",
}

#: Attributes a record's repr() shows as ``[hidden]`` (CreatedWebhook's signing secret), as Java's
#: and .NET's generated records do in toString().
SECRET_ATTRIBUTES = ("secret",)


def snake(name: str) -> str:
    out = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return out + "_" if keyword.iskeyword(out) else out


def camel(attribute: str) -> str:
    """The inverse, as cambio._record.api_name reads it back."""
    return re.sub(r"_([a-z0-9])", lambda match: match.group(1).upper(), attribute.rstrip("_"))


class Generator:
    def __init__(self, spec: Dict[str, Any]) -> None:
        self.spec = spec
        self.schemas: Dict[str, Any] = spec["components"]["schemas"]
        self.records = self.record_names()
        self.classes: List[str] = []  # rendered class sources, dependencies first
        self.done: Dict[str, str] = {}  # class name → schema identity

    def record_names(self) -> List[str]:
        """The records the API answers with: every object schema but the success envelopes (the
        client unwraps them), the request bodies (REQUESTS) and the webhook payloads (WebhookEvent)."""
        payloads = {self.ref_name(op["post"]["requestBody"]["content"]["application/json"]["schema"]) for op in self.spec.get("webhooks", {}).values()}
        return [
            name
            for name, schema in self.schemas.items()
            if schema.get("type") == "object"
            and "success" not in schema.get("properties", {})
            and name not in REQUESTS
            and name not in payloads
        ]

    @staticmethod
    def ref_name(schema: Dict[str, Any]) -> Optional[str]:
        return schema["$ref"].rsplit("/", 1)[1] if "$ref" in schema else None

    # -- types ---------------------------------------------------------------------------------

    def resolve(self, schema: Dict[str, Any]) -> Dict[str, Any]:
        while "$ref" in schema:
            schema = self.schemas[self.ref_name(schema)]
        return schema

    def literals(self, schema: Dict[str, Any]) -> Optional[List[Any]]:
        """The values of a const/enum schema (or of a union of them), else None."""
        schema = self.resolve(schema)
        if "const" in schema:
            return [schema["const"]]
        if "enum" in schema:
            return list(schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                values: List[Any] = []
                for option in schema[key]:
                    more = self.literals(option)
                    if more is None:
                        return None
                    values += [v for v in more if v not in values]
                return values
        return None

    def annotation(self, schema: Dict[str, Any], owner: str, prop: str) -> str:
        """The type annotation of one property schema (Record reads the attribute by it)."""
        if "$ref" in schema:
            name = self.ref_name(schema)
            if self.resolve(schema).get("type") == "object" and name in self.records:
                return name
            return self.annotation(self.resolve(schema), owner, prop)
        for key in ("anyOf", "oneOf"):
            if key in schema:
                options = schema[key]
                nullable = any(option.get("type") == "null" for option in options)
                rest = [option for option in options if option.get("type") != "null"]
                if not rest:
                    return "None"
                if len(rest) == 1:
                    inner = self.annotation(rest[0], owner, prop)
                elif all(self.resolve(o).get("type") == "object" for o in rest):
                    inner = self.inline_object({"oneOf": rest}, owner, prop)
                elif all(o.get("type") == "array" for o in rest):
                    inner = self.annotation(self.merge_arrays(rest), owner, prop)
                elif len({self.annotation(o, owner, prop) for o in rest}) == 1:
                    inner = self.annotation(rest[0], owner, prop)
                else:
                    values = self.literals({"anyOf": rest})
                    inner = self.literal(values) if values is not None else "Any"
                if inner == "Any":
                    return "Any"
                return f"Optional[{inner}]" if nullable else inner
        values = self.literals(schema)
        if values is not None:
            return self.literal(values)
        kind = schema.get("type")
        if kind in SCALARS:
            return SCALARS[kind]
        if kind == "array":
            items = schema.get("items")
            if not isinstance(items, dict):
                items = (schema.get("prefixItems") or [{}])[0]
            return f"List[{self.annotation(items, owner, prop.rstrip('[]') + '[]')}]"
        if kind == "object" and schema.get("properties"):
            return self.inline_object(schema, owner, prop)
        return "Any"

    def merge_arrays(self, arrays: List[Dict[str, Any]]) -> Dict[str, Any]:
        items = []
        for array in arrays:
            item = array.get("items")
            items.append(item if isinstance(item, dict) else (array.get("prefixItems") or [{}])[0])
        return {"type": "array", "items": {"anyOf": items}}

    @staticmethod
    def literal(values: List[Any]) -> str:
        return "Literal[" + ", ".join(json.dumps(v) if not isinstance(v, bool) else repr(v) for v in values) + "]"

    def inline_object(self, schema: Dict[str, Any], owner: str, prop: str) -> str:
        item = prop.endswith("[]")
        prop = prop.rstrip("[]")
        name = INLINE_NAMES.get((owner, prop)) or owner + prop[:1].upper() + prop[1:]
        shape = "An item of" if item else "The object in"
        self.record(name, schema, f"{shape} ``{owner}.{snake(prop)}``.")
        return name

    # -- classes -------------------------------------------------------------------------------

    def merged_properties(self, schema: Dict[str, Any]) -> Tuple[Dict[str, List[Dict[str, Any]]], List[str]]:
        """Properties of an object, or of a oneOf of objects (each property's schemas, in order)."""
        variants = [self.resolve(option) for option in schema.get("oneOf", [])] or [schema]
        properties: Dict[str, List[Dict[str, Any]]] = {}
        for variant in variants:
            for name, prop in variant.get("properties", {}).items():
                properties.setdefault(name, []).append(prop)
        return properties, list(variants[0].get("required", []))

    def summary(self, name: str) -> str:
        return self.schemas[name].get("description") or f"The API's ``{name}`` record (openapi.json ``components.schemas.{name}``)."

    def base_of(self, name: str) -> Optional[str]:
        """The record this one extends, if any: another record whose properties are exactly this
        one's first ones (CreatedWebhook is a Webhook plus its ``secret``)."""
        mine = list(self.schemas[name].get("properties", {}).items())
        for other in self.records:
            theirs = list(self.schemas[other].get("properties", {}).items())
            if other != name and 0 < len(theirs) < len(mine) and mine[: len(theirs)] == theirs:
                return other
        return None

    def record(self, name: str, schema: Dict[str, Any], doc: str) -> None:
        if name in self.done:
            return
        base = self.base_of(name) if name in self.records else None
        if base is not None:
            self.record(base, self.schemas[base], self.summary(base))  # a base class comes first
        self.done[name] = name
        properties, _ = self.merged_properties(self.resolve(schema))
        inherited = list(self.schemas[base]["properties"]) if base is not None else []
        fields = []
        for prop, options in properties.items():
            if prop in inherited:
                continue
            annotation = self.annotation(options[0] if len(options) == 1 else {"anyOf": options}, name, prop)
            description = next((o.get("description") for o in options if o.get("description")), None)
            if description is None:
                description = next((o.get("description") for option in options for o in option.get("anyOf", []) if o.get("description")), None)
            if camel(snake(prop)) != prop:
                # Record reads each attribute under camel(attribute): a name that does not come back
                # the same needs the client to carry it explicitly again.
                raise SystemExit(f"{name}.{prop} is not lowerCamelCase: the client could not read it as {snake(prop)}")
            fields.append((snake(prop), annotation, description))
        lines = ["@dataclass(frozen=True)", f"class {name}({base or 'Record'}):", f'    """{doc}"""', ""]
        for attribute, annotation, description in fields:
            if description:
                lines.append(f"    #: {description}")
            lines.append(f"    {attribute}: {annotation}")
        secrets = [attribute for attribute, _, _ in fields if attribute in SECRET_ATTRIBUTES]
        if secrets:
            # A signing secret must not end up in logs through repr() or str() (as Java's toString).
            names = ", ".join(f'"{attribute}"' for attribute in secrets)
            shown = " and ".join(f"``{attribute}``" for attribute in secrets)
            lines += [
                "",
                "    def __repr__(self) -> str:",
                f'        """As the dataclass\'s, with {shown} shown as ``[hidden]``: read it as an attribute."""',
                f"        return repr_hiding(self, {names})",
            ]
        self.classes.append("\n".join(lines))

    def request_table(self, name: str) -> str:
        schema = self.schemas[name]
        required = set(schema.get("required", []))
        for prop in schema.get("properties", {}):
            if camel(snake(prop)) != prop:
                # The client sends each keyword argument under api_name(keyword), as Record reads.
                raise SystemExit(f"{name}.{prop} is not lowerCamelCase: the client could not send it as {snake(prop)}")
        rows = [f'    ("{snake(p)}", {p in required}),' for p in schema.get("properties", {})]
        constant = snake(name.replace("Request", "")).upper() + "_FIELDS"
        return "\n".join([f"#: ``{REQUESTS[name]}``: (keyword argument, required), from {name}.", f"{constant}: RequestFields = (", *rows, ")"])

    def render(self) -> str:
        for name in self.records:
            self.record(name, self.schemas[name], self.summary(name))
        events = self.spec.get("webhooks", {})
        event_rows = []
        for event_type, operation in events.items():
            body = operation["post"]["requestBody"]["content"]["application/json"]["schema"]
            data = self.resolve(body)["properties"]["data"]
            # webhook.test carries no record, only a small object: its data stays a plain dict.
            if "$ref" not in data:
                continue
            event_rows.append(f'    "{event_type}": {self.ref_name(data)},')
        error_codes = self.schemas["ErrorResponse"]["properties"]["error"]["properties"]["code"]["enum"]
        parts = [
            '"""The API\'s records, request fields, event types and error codes.',
            "",
            "GENERATED by tools/generate_types.py from openapi.json: do not edit by hand; run",
            "``python3 tools/generate_types.py`` after changing openapi.json (a test fails until you do).",
            '"""',
            "",
            "from __future__ import annotations",
            "",
            "from dataclasses import dataclass",
            "from decimal import Decimal",
            "from typing import " + TYPING_IMPORTS_PLACEHOLDER,
            "",
            "from ._record import Record" + (", repr_hiding" if any("repr_hiding(" in cls for cls in self.classes) else ""),
            "",
            "#: A request body's fields: (keyword argument, required), each sent under its camelCase name.",
            "RequestFields = Tuple[Tuple[str, bool], ...]",
            "",
            "#: What ``cambio`` re-exports: the version, every record, the event types and error codes.",
            "__all__ = [",
            '    "API_VERSION",',
            *[f'    "{n}",' for n in self.done],
            '    "EventType",',
            '    "ErrorCode",',
            "]",
            "",
            "#: openapi.json ``info.version``: the API these types were generated from.",
            f'API_VERSION = "{self.spec["info"]["version"]}"',
            "",
            "",
            *[cls + "\n\n" for cls in self.classes],
            "#: Every record class, by the name openapi.json gives it.",
            "RECORDS: Dict[str, Type[Record]] = {",
            *[f'    "{n}": {n},' for n in self.done],
            "}",
            "",
            "",
            *[self.request_table(name) + "\n\n" for name in REQUESTS],
            "#: The record inside each event type's ``data`` (openapi.json ``webhooks``).",
            "EVENT_DATA_TYPES: Dict[str, Type[Record]] = {",
            *event_rows,
            "}",
            "",
            "EventType = " + self.literal(list(events)),
            "",
            "#: The contract's error codes (``error.code`` in the envelope).",
            "ErrorCode = " + self.literal(error_codes),
        ]
        text = "\n".join(parts).rstrip() + "\n"
        # Only the typing names the module uses: an unused import is what a linter flags first.
        body = text.split(TYPING_IMPORTS_PLACEHOLDER, 1)[1]
        used = [name for name in TYPING_NAMES if re.search(rf"\b{name}\b", body)]
        return text.replace(TYPING_IMPORTS_PLACEHOLDER, ", ".join(used), 1)


def render(openapi_path: Path = OPENAPI) -> str:
    return Generator(json.loads(openapi_path.read_text(encoding="utf-8"))).render()


def main(argv: List[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUTPUT.read_text(encoding="utf-8") if OUTPUT.exists() else ""
        if current != text:
            print(f"{OUTPUT} is out of date: run python3 tools/generate_types.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
