"""Optional capabilities of a target: probed once per run, and the one place that decides a skip.

A scenario tagged ``@capability_<name>`` needs capability ``<name>``; ``@reference_only`` needs
``reference_clock`` (the reference server's test hook). A probe is a function of the admin client
that says whether the target offers the capability. A capability without a probe counts as
supported, so its scenarios run and their outcome speaks. The verdict machinery (unsupported versus
failed) builds on :func:`missing_capability`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import requests

from .client import HttpClient

__all__ = [
    "CAPABILITY_PREFIX",
    "PROBES",
    "REFERENCE_ONLY",
    "missing_capability",
    "probe",
    "register_probe",
    "required_capabilities",
    "unsupported_reason",
]

CAPABILITY_PREFIX = "capability_"
REFERENCE_ONLY = "reference_only"
REFERENCE_ONLY_CAPABILITY = "reference_clock"

Probe = Callable[[HttpClient], bool]
PROBES: dict[str, Probe] = {}


def register_probe(name: str) -> Callable[[Probe], Probe]:
    """Declare how to detect capability ``name`` (also registers the ``capability_<name>`` marker)."""

    def decorate(function: Probe) -> Probe:
        PROBES[name] = function
        return function

    return decorate


@register_probe(REFERENCE_ONLY_CAPABILITY)
def _reference_clock(admin: HttpClient) -> bool:
    """The reference server's clock hook answers 200 to the admin."""
    try:
        return admin.get("-/reference/clock").status_code == 200
    except requests.RequestException:
        return False


def probe(name: str, admin: HttpClient) -> bool:
    """Run the probe of ``name``; a capability without a probe is taken as supported."""
    function = PROBES.get(name)
    return True if function is None else function(admin)


def required_capabilities(tags: Iterable[str]) -> list[str]:
    """The capabilities a scenario's tags ask for, in a stable order."""
    needed: set[str] = set()
    for tag in tags:
        if tag == REFERENCE_ONLY:
            needed.add(REFERENCE_ONLY_CAPABILITY)
        elif tag.startswith(CAPABILITY_PREFIX):
            needed.add(tag.removeprefix(CAPABILITY_PREFIX))
    return sorted(needed)


def missing_capability(tags: Iterable[str], supported: Callable[[str], bool]) -> str | None:
    """The first capability the scenario needs and the target lacks, if any."""
    for name in required_capabilities(tags):
        if not supported(name):
            return name
    return None


def unsupported_reason(capability: str) -> str:
    """The skip reason reports recognise as "unsupported"."""
    return f"unsupported: {capability}"
