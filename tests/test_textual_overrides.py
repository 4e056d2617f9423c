"""No app class shadows a Textual attribute by accident.

A method named like one of Textual's own (``Screen.is_current`` is a property Textual reads on
every idle to decide whether to repaint; ``Widget.animate`` and ``DOMNode.action_toggle`` are
called by Textual with their own arguments) silently breaks Textual where it uses that name.
Every class of the app that subclasses a Textual node is checked: a name Textual defines as a
property stays a property, and a method Textual defines keeps a call signature Textual can use.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.dom import DOMNode

import pokertui


def _app_classes() -> list[type]:
    found = {}
    for info in pkgutil.walk_packages(pokertui.__path__, "pokertui."):
        if info.name == "pokertui.__main__":  # runs the CLI when imported
            continue
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == info.name and issubclass(cls, DOMNode):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def _textual_attribute(cls: type, name: str):
    for base in cls.__mro__[1:]:
        if base.__module__.startswith("textual") and name in vars(base):
            return base, vars(base)[name]
    return None, None


def _arity(function) -> tuple[int, int]:
    """Required and total positional parameters, ``self`` left out (``*args``: unbounded)."""
    params = list(inspect.signature(function).parameters.values())[1:]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = sum(p.default is p.empty for p in positional)
    unbounded = any(p.kind is p.VAR_POSITIONAL for p in params)
    return required, 10**6 if unbounded else len(positional)


def test_the_app_has_textual_nodes_to_check():
    names = {cls.__name__ for cls in _app_classes()}
    assert {"PlayScreen", "HunlPlayScreen", "RangeGrid"} <= names


def test_no_app_class_shadows_a_textual_attribute():
    clashes = []
    for cls in _app_classes():
        for name, ours in vars(cls).items():
            if name.startswith("__"):
                continue
            base, theirs = _textual_attribute(cls, name)
            if base is None:
                continue
            where = f"{cls.__module__}.{cls.__qualname__}.{name} (Textual's {base.__name__})"
            if isinstance(theirs, property) and not isinstance(ours, property):
                clashes.append(f"{where}: a property in Textual")
            elif inspect.isfunction(theirs) and inspect.isfunction(ours):
                need, most = _arity(theirs)
                our_need, our_most = _arity(ours)
                if our_need > need or our_most < need:
                    clashes.append(f"{where}: Textual calls it with {need} arguments")
    assert not clashes, "\n".join(clashes)
