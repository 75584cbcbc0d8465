"""A cheaper ``__init__`` for the frozen dataclasses that play makes on every move.

A frozen dataclass's generated ``__init__`` sets each field with ``object.__setattr__``.
For a slotted class, the slot's own descriptor sets it about a third more cheaply; nothing
else differs (the signature, the defaults, ``__post_init__``, the frozen instance).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

C = TypeVar("C", bound=type)


def fast_init(cls: C) -> C:
    """Give a frozen, slotted dataclass whose fields are all plain positional ones an
    ``__init__`` that sets them through their slot descriptors, with the generated one's
    signature, then calls ``__post_init__`` if the class has one."""
    attributes = vars(cls)
    fields = dataclasses.fields(cls)
    if not (
        attributes["__dataclass_params__"].frozen
        and "__slots__" in attributes
        and len(attributes["__dataclass_fields__"]) == len(fields)  # no ClassVar, no InitVar
    ):
        raise TypeError(f"{cls.__name__} is not a frozen, slotted dataclass of plain fields")
    defaults: dict[str, Any] = {}
    parameters, body = [], []
    for number, field in enumerate(fields):
        if not field.init or field.kw_only or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name} is not a plain positional field")
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            defaults[field.name] = field.default
            parameters.append(f"{field.name}=_defaults[{field.name!r}]")
        body.append(f"    _set[{number}](self, {field.name})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    namespace: dict[str, Any] = {
        "_set": tuple(attributes[field.name].__set__ for field in fields),
        "_defaults": defaults,
    }
    exec(f"def __init__(self, {', '.join(parameters)}):\n" + "\n".join(body), namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = attributes["__init__"].__annotations__
    type.__setattr__(cls, "__init__", init)
    return cls
