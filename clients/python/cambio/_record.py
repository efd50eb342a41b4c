"""The base of every record the API returns (the generated classes in ``_types.py``)."""

from __future__ import annotations

import re
from dataclasses import fields
from decimal import Decimal
from typing import Any, ClassVar, Dict, Mapping, Optional, Tuple, Type, TypeVar, Union, get_args, get_origin, get_type_hints

from ._errors import InvalidResponseError

R = TypeVar("R", bound="Record")

#: How one attribute is read from the API's JSON: ``(attribute, api_name, kind)``, where kind is
#: ``None`` (the JSON value as it is), ``"decimal"`` (a JSON number, kept exact as a Decimal), a
#: Record subclass (a nested object) or ``("list", kind)``. Worked out from each record's own
#: annotations when the class is made, so a field is declared once.
ApiFields = Tuple[Tuple[str, str, Any], ...]


class Record:
    """A frozen dataclass with the API's fields as snake_case attributes.

    Fields the API adds later are ignored (a newer API never breaks an older client); a field the
    answer lacks reads as ``None``. ``to_dict()`` gives the record back with the API's own names.
    """

    __api_fields__: ClassVar[ApiFields] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # The attributes this class adds (a subclass keeps its base's first, as its dataclass does),
        # under the API's camelCase names; the annotations name classes defined before this one.
        hints = get_type_hints(cls)
        own = [name for name in cls.__dict__.get("__annotations__", {}) if get_origin(hints[name]) is not ClassVar]
        cls.__api_fields__ = cls.__api_fields__ + tuple((name, api_name(name), _kind(hints[name])) for name in own)

    @classmethod
    def _from_api(cls: Type[R], data: Any, *, request_id: Optional[str] = None) -> R:
        if not isinstance(data, Mapping):
            raise InvalidResponseError(
                f"Expected a {cls.__name__} object in the answer, got {type(data).__name__}",
                status=None,
                request_id=request_id,
            )
        values = {attribute: _read(data.get(api), kind, request_id) for attribute, api, kind in cls.__api_fields__}
        return cls(**values)

    def to_dict(self) -> Dict[str, Any]:
        """The record as the API sends it: camelCase names, nested records as dicts."""
        return {api: _write(getattr(self, attribute)) for attribute, api, _ in self.__api_fields__}


def repr_hiding(record: Record, *hidden: str) -> str:
    """The dataclass's repr of ``record``, with each attribute named in ``hidden`` shown as
    ``[hidden]``: a signing secret must not end up in a log line or a traceback through repr()."""
    shown = (f"{f.name}=[hidden]" if f.name in hidden else f"{f.name}={getattr(record, f.name)!r}" for f in fields(record) if f.repr)
    return f"{type(record).__qualname__}({', '.join(shown)})"


def api_name(attribute: str) -> str:
    """The API's camelCase name of a snake_case attribute (``tx_hash`` → ``txHash``; a trailing
    ``_``, added to a Python keyword, is dropped). tools/generate_types.py checks every field
    round-trips."""
    return re.sub(r"_([a-z0-9])", lambda match: match.group(1).upper(), attribute.rstrip("_"))


def _kind(annotation: Any) -> Any:
    """The kind (see ApiFields) of an attribute's type: Decimal, a Record, a list of either, or
    None for what JSON gives as it is; Optional[X] is read as X."""
    options = [option for option in get_args(annotation) if option is not type(None)]
    if get_origin(annotation) is Union and len(options) == 1:
        annotation = options[0]
    if annotation is Decimal:
        return "decimal"
    if isinstance(annotation, type) and issubclass(annotation, Record):
        return annotation
    if get_origin(annotation) is list:
        inner = _kind(get_args(annotation)[0])
        return None if inner is None else ("list", inner)
    return None


def _read(value: Any, kind: Any, request_id: Optional[str]) -> Any:
    if value is None or kind is None:
        return value
    if kind == "decimal":
        return Decimal(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if isinstance(kind, tuple):
        if not isinstance(value, list):
            return value
        return [_read(item, kind[1], request_id) for item in value]
    return kind._from_api(value, request_id=request_id)


def _write(value: Any) -> Any:
    if isinstance(value, Record):
        return value.to_dict()
    if isinstance(value, list):
        return [_write(item) for item in value]
    return value
