"""The base of every record the API returns (the generated classes in ``_types.py``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, ClassVar, Dict, Mapping, Optional, Tuple, Type, TypeVar

from ._errors import InvalidResponseError

R = TypeVar("R", bound="Record")

#: How one attribute is read from the API's JSON: ``(attribute, api_name, kind)``, where kind is
#: ``None`` (the JSON value as it is), ``"decimal"`` (a JSON number, kept exact as a Decimal), a
#: Record subclass (a nested object) or ``("list", kind)``.
ApiFields = Tuple[Tuple[str, str, Any], ...]


class Record:
    """A frozen dataclass with the API's fields as snake_case attributes.

    Fields the API adds later are ignored (a newer API never breaks an older client); a field the
    answer lacks reads as ``None``. ``to_dict()`` gives the record back with the API's own names.
    """

    __api_fields__: ClassVar[ApiFields] = ()

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
