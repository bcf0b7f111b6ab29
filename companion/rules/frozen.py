"""``replace`` for the rules' frozen dataclasses: the same new object as ``dataclasses.replace``, cheaper.

An action makes one new state (``state.Draft``), but most change a seat or two
as well (a card drawn, a stack won), each a new ``Seat``. ``dataclasses.replace``
looks up the class's fields and passes every value by keyword again at each
copy; this one reads the fields once per class, takes the old values in one
call, and passes them by position to the class's own ``__init__``, so an object
made here is exactly the one ``dataclasses.replace`` makes
(tests/test_rules_frozen.py compares them). It serves classes whose fields all
go through ``__init__``, as every class of the rules does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")
Plan = tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]

_PLANS: dict[type, Plan] = {}
"""By class: a getter of every field's value, in ``__init__``'s order, and each field's place in it."""


def replace(obj: T, /, **changes: Any) -> T:
    cls = type(obj)
    values_of, place = _PLANS.get(cls) or _plan(cls)
    values = list(values_of(obj))
    for name, value in changes.items():
        try:
            values[place[name]] = value
        except KeyError:
            raise TypeError(f"{cls.__name__} has no field {name!r}") from None
    return cls(*values)


def _plan(cls: type) -> Plan:
    if any(not field.init for field in fields(cls)):
        raise TypeError(f"{cls.__name__} has a field outside __init__: use dataclasses.replace")
    names = [field.name for field in fields(cls)]
    values_of = attrgetter(*names) if len(names) > 1 else lambda obj: (getattr(obj, names[0]),)
    plan = _PLANS[cls] = (values_of, {name: i for i, name in enumerate(names)})
    return plan
