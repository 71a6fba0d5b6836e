"""Profiles: what a target is expected to meet, as data files shipped in ``conformance/profiles/``.

A profile names the scenario sources it covers (``spec``, ``gitea``, ``reference``), the optional
capabilities it probes (a scenario needing a capability the profile does not name is disabled), tags
and scenario ids it leaves out, the Gitea release it describes (``gitea_version``, used to pick a
profile for a live target) and its default expectations file. ``conformance --profile NAME|FILE``.

Without ``--profile``: the embedded server and any target whose version ends in ``+reference`` get
``reference``; a version naming a Gitea release (``1.27.3``, or Forgejo's ``11.0.1+gitea-1.22.0``)
gets the Gitea profile of the highest release not newer than it (the oldest one when it is older than
all); anything else gets ``spec``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from .capabilities import CAPABILITY_PREFIX, PROBES, REFERENCE_ONLY_CAPABILITY
from .clauses import clause_by_tag
from .tags import AREAS, SOURCES, SPECIAL_TAGS

__all__ = [
    "DEFAULT_PROFILE",
    "PROFILES_DIR",
    "Profile",
    "ProfileError",
    "available_profiles",
    "known_tags",
    "load_profile",
    "pick_profile_name",
    "shipped_capabilities",
]

PROFILES_DIR = Path(__file__).resolve().parent / "profiles"
EXPECTATIONS_DIR = Path(__file__).resolve().parent / "expectations"
DEFAULT_PROFILE = "reference"
SPEC_PROFILE = "spec"
KEYS = frozenset(
    {
        "name",
        "description",
        "sources",
        "capabilities",
        "exclude_tags",
        "exclude_scenarios",
        "gitea_version",
        "expectations",
    }
)
_GITEA_IN_VERSION = re.compile(r"gitea-(\d+)\.(\d+)")
_LEADING_VERSION = re.compile(r"^v?(\d+)\.(\d+)")


class ProfileError(ValueError):
    """A profile that cannot be used: one clear line for the person running the suite."""


@dataclass(frozen=True)
class Profile:
    """A parsed, checked profile."""

    name: str
    description: str
    sources: tuple[str, ...]
    capabilities: tuple[str, ...]
    exclude_tags: tuple[str, ...] = ()
    exclude_scenarios: tuple[str, ...] = ()
    gitea_version: tuple[int, int] | None = None
    expectations: Path | None = None
    path: Path | None = field(default=None, compare=False)

    def excludes(self, scenario_id: str, tags: Iterable[str], capabilities: Iterable[str]) -> str | None:
        """Why the profile leaves this scenario out, or None when it covers it."""
        tag_set = set(tags)
        if not tag_set & set(self.sources):
            return f"disabled: profile {self.name} covers only {', '.join(self.sources)} scenarios"
        for tag in self.exclude_tags:
            if tag in tag_set:
                return f"disabled: profile {self.name} leaves out @{tag}"
        for capability in capabilities:
            if capability not in self.capabilities:
                return f"disabled: profile {self.name} does not cover the capability {capability}"
        base_id = scenario_id.split("[", 1)[0]
        if scenario_id in self.exclude_scenarios or base_id in self.exclude_scenarios:
            return f"disabled: profile {self.name} leaves this scenario out"
        return None

    def unknown_names(self, known_tags: Iterable[str], known_capabilities: Iterable[str]) -> list[str]:
        """The tags and capabilities this profile names that the kit does not know."""
        tags, capabilities = set(known_tags), set(known_capabilities)
        unknown = [f"source @{name}" for name in self.sources if name not in tags]
        unknown += [f"tag @{name}" for name in self.exclude_tags if name not in tags]
        unknown += [f"capability {name}" for name in self.capabilities if name not in capabilities]
        return unknown

    def unknown_scenarios(self, scenario_ids: Iterable[str]) -> list[str]:
        """Scenario ids in ``exclude_scenarios`` that no collected scenario has."""
        known = set(scenario_ids) | {scenario_id.split("[", 1)[0] for scenario_id in scenario_ids}
        return [scenario_id for scenario_id in self.exclude_scenarios if scenario_id not in known]


def available_profiles() -> list[str]:
    """The names of the profiles shipped with the kit."""
    return sorted(path.stem for path in PROFILES_DIR.glob("*.yaml"))


def shipped_capabilities() -> set[str]:
    """Every capability the kit's own profiles name (known even where no probe or marker declares it)."""
    return {name for profile in (load_profile(name) for name in available_profiles()) for name in profile.capabilities}


def _strings(raw: dict[str, Any], key: str, path: Path) -> tuple[str, ...]:
    value = raw.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) and item for item in value):
        raise ProfileError(f"profile {path}: {key} must be a list of names")
    return tuple(value)


def _parse(raw: Any, path: Path) -> Profile:
    if not isinstance(raw, dict):
        raise ProfileError(f"profile {path} must be a mapping (name, sources, capabilities, ...)")
    unknown = sorted(str(key) for key in set(raw) - KEYS)
    if unknown:
        raise ProfileError(f"profile {path} has unknown keys: {', '.join(unknown)}")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise ProfileError(f"profile {path} needs a name")
    sources = _strings(raw, "sources", path)
    if not sources:
        raise ProfileError(f"profile {path} names no sources (spec, gitea, reference)")
    version: tuple[int, int] | None = None
    if raw.get("gitea_version") is not None:
        match = re.fullmatch(r"(\d+)\.(\d+)", str(raw["gitea_version"]))
        if match is None:
            raise ProfileError(f"profile {path}: gitea_version must look like 1.27")
        version = (int(match.group(1)), int(match.group(2)))
    expectations: Path | None = None
    if raw.get("expectations") is not None:
        if not isinstance(raw["expectations"], str):
            raise ProfileError(f"profile {path}: expectations must be a file name")
        expectations = _expectations_path(raw["expectations"], path)
    description = raw.get("description", "")
    return Profile(
        name=name,
        description=str(description).strip(),
        sources=sources,
        capabilities=_strings(raw, "capabilities", path),
        exclude_tags=_strings(raw, "exclude_tags", path),
        exclude_scenarios=_strings(raw, "exclude_scenarios", path),
        gitea_version=version,
        expectations=expectations,
        path=path,
    )


def _expectations_path(name: str, profile_path: Path) -> Path:
    """Relative to the profile file first, then among the kit's shipped expectation files."""
    beside = (profile_path.parent / name).resolve()
    if beside.exists() and beside != profile_path.resolve():
        return beside
    shipped = EXPECTATIONS_DIR / name
    if shipped.exists():
        return shipped
    raise ProfileError(f"profile {profile_path}: its expectations file {name} does not exist")


def load_profile(name_or_file: str) -> Profile:
    """A shipped profile by name, or a profile file by path; ProfileError when it is unusable."""
    path = Path(name_or_file)
    if not (name_or_file.endswith((".yaml", ".yml")) or path.exists()):
        path = PROFILES_DIR / f"{name_or_file}.yaml"
        if not path.exists():
            raise ProfileError(
                f"unknown profile {name_or_file!r}: the kit has {', '.join(available_profiles())} (or give a YAML file)"
            )
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ProfileError(f"cannot read profile {path}: {error.strerror}") from None
    except yaml.YAMLError as error:
        raise ProfileError(f"profile {path} is not valid YAML: {error}") from None
    return _parse(raw, path)


def _release_of(version: str) -> tuple[int, int] | None:
    match = _GITEA_IN_VERSION.search(version) or _LEADING_VERSION.match(version)
    return (int(match.group(1)), int(match.group(2))) if match else None


def pick_profile_name(version: str, *, embedded: bool) -> str:
    """The profile for a target given no ``--profile`` (the rule of this module's docstring)."""
    if embedded or version.endswith("+reference"):
        return DEFAULT_PROFILE
    release = _release_of(version)
    if release is None:
        return SPEC_PROFILE
    gitea = sorted(
        (profile.gitea_version, profile.name)
        for profile in (load_profile(name) for name in available_profiles())
        if profile.gitea_version is not None
    )
    if not gitea:
        return SPEC_PROFILE
    older = [name for profile_version, name in gitea if profile_version <= release]
    return older[-1] if older else gitea[0][1]


def known_tags(config: pytest.Config) -> tuple[set[str], set[str]]:
    """Every tag the kit registers as a marker, and every capability name it knows."""
    markers = {str(line).split(":", 1)[0].strip() for line in config.getini("markers")}
    tags = set(AREAS) | set(SOURCES) | set(SPECIAL_TAGS) | set(clause_by_tag()) | markers
    capabilities = set(PROBES) | {REFERENCE_ONLY_CAPABILITY}
    capabilities |= {tag.removeprefix(CAPABILITY_PREFIX) for tag in tags if tag.startswith(CAPABILITY_PREFIX)}
    capabilities |= shipped_capabilities()
    return tags, capabilities
