"""Issue templates as Gitea reads them: Markdown files with YAML front matter and YAML issue forms,
checked by the rules of Gitea's ``modules/issue/template`` (its messages, first error only)."""

from __future__ import annotations

import datetime
import re
from typing import Any

import yaml

__all__ = ["TemplateError", "could_be_template", "parse_template", "yaml_document"]

FIELD_TYPES = ("markdown", "textarea", "input", "dropdown", "checkboxes")
_ID = re.compile(r"^[A-Za-z0-9_-]+$")
_SEPARATOR = re.compile(r"^-{3,}[ \t\r]*$")


class TemplateError(ValueError):
    """Why a file is not a usable template (or configuration): Gitea's wording where it has one."""


def could_be_template(name: str) -> bool:
    """Gitea's low-cost ``CouldBe``: a Markdown or YAML file name."""
    return name.endswith((".md", ".yaml", ".yml"))


def _jsonable(value: Any) -> Any:
    """YAML scalars JSON cannot carry (dates, binary) as text; mapping keys as text."""
    if isinstance(value, dict):
        return {str(key): _jsonable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def yaml_document(text: str) -> dict[str, Any]:
    """A YAML mapping (an empty document is an empty mapping); ``TemplateError`` otherwise."""
    try:
        loaded = yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise TemplateError(f"yaml: {str(error).splitlines()[0] if str(error) else 'invalid document'}") from None
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise TemplateError(f"yaml: cannot unmarshal {type(loaded).__name__} into a mapping")
    return {str(key): _jsonable(item) for key, item in loaded.items()}


def _front_matter(content: str) -> tuple[str, str]:
    """Gitea's ``ExtractMetadata``: the YAML between the first two separator lines, and the body after."""
    lines = content.split("\n")
    if not lines or not _SEPARATOR.match(lines[0]):
        raise TemplateError("frontmatter must start with a separator line")
    for number, line in enumerate(lines[1:], start=1):
        if _SEPARATOR.match(line):
            front = "\n".join(lines[1:number])
            if not front:
                break
            return front, "\n".join(lines[number + 1 :])
    raise TemplateError("could not determine metadata")


def _text(document: dict[str, Any], key: str) -> str:
    value = document.get(key)
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        raise TemplateError(f"yaml: '{key}' should be a string")
    return str(value)


def _string_list(document: dict[str, Any], key: str) -> list[str]:
    """Gitea's ``IssueTemplateStringSlice``: a list, or one comma-separated text."""
    value = document.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(item, (str, int, float)) for item in value):
        return [str(item) for item in value]
    raise TemplateError(f"yaml: '{key}' should be a list or a comma-separated text")


def _fields(document: dict[str, Any]) -> list[dict[str, Any]]:
    raw = document.get("body")
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(item, dict) for item in raw):
        raise TemplateError("yaml: 'body' should be a list of fields")
    fields: list[dict[str, Any]] = []
    for index, item in enumerate(raw):
        attributes, validations = item.get("attributes"), item.get("validations")
        if attributes is not None and not isinstance(attributes, dict):
            raise TemplateError(f"body[{index}]: 'attributes' should be a dictionary")
        if validations is not None and not isinstance(validations, dict):
            raise TemplateError(f"body[{index}]: 'validations' should be a dictionary")
        field: dict[str, Any] = {
            "type": str(item.get("type") or ""),
            "id": str(item.get("id") or "") or str(index),
            "attributes": attributes,
            "validations": validations,
        }
        if item.get("visible") is not None:
            field["visible"] = item["visible"]
        fields.append(field)
    return fields


def _string_item(position: str, mapping: dict[str, Any] | None, required: bool, *names: str) -> None:
    for name in names:
        if mapping is None or name not in mapping:
            if required:
                raise TemplateError(f"{position}: '{name}' is required")
            return
        value = mapping[name]
        if not isinstance(value, str):
            raise TemplateError(f"{position}: '{name}' should be a string")
        if required and not value.strip():
            raise TemplateError(f"{position}: '{name}' is required")


def _bool_item(position: str, mapping: dict[str, Any] | None, *names: str) -> None:
    for name in names:
        if mapping is None or name not in mapping:
            return
        if not isinstance(mapping[name], bool):
            raise TemplateError(f"{position}: '{name}' should be a bool")


def _options(position: str, field: dict[str, Any]) -> None:
    options = (field["attributes"] or {}).get("options")
    if not isinstance(options, list) or not options:
        raise TemplateError(f"{position}: 'options' is required and should be a array")
    for number, option in enumerate(options):
        where = f"{position}, option[{number}]"
        if field["type"] == "dropdown" and not isinstance(option, str):
            raise TemplateError(f"{where}: should be a string")
        if field["type"] == "checkboxes":
            if not isinstance(option, dict):
                raise TemplateError(f"{where}: should be a dictionary")
            label = option.get("label")
            if not isinstance(label, str) or not label:
                raise TemplateError(f"{where}: 'label' is required and should be a string")
            if "required" in option and not isinstance(option["required"], bool):
                raise TemplateError(f"{where}: 'required' should be a bool")


def _validate_field(index: int, field: dict[str, Any], ids: set[str]) -> None:
    """One field of a form, by Gitea's ``validateYaml`` (id, label, then the type's attributes)."""
    kind = field["type"]
    position = f"body[{index}]({kind})"
    attributes, validations = field["attributes"], field["validations"]
    if kind != "markdown":
        if not _ID.match(field["id"]):
            raise TemplateError(f"{position}: 'id' should contain only alphanumeric, '-' and '_'")
        if field["id"] in ids:
            raise TemplateError(f"{position}: 'id' should be unique")
        ids.add(field["id"])
        _string_item(position, attributes, True, "label")
    if kind == "markdown":
        _string_item(position, attributes, True, "value")
    elif kind == "textarea":
        _string_item(position, attributes, False, "description", "placeholder", "value", "render")
    elif kind == "input":
        _string_item(position, attributes, False, "description", "placeholder", "value")
        _bool_item(position, validations, "is_number")
        _string_item(position, validations, False, "regex")
    elif kind in ("dropdown", "checkboxes"):
        _string_item(position, attributes, False, "description")
        if kind == "dropdown":
            _bool_item(position, attributes, "multiple")
        _options(position, field)
    else:
        raise TemplateError(f"{position}: unknown type")
    if kind not in ("markdown", "checkboxes"):
        _bool_item(position, validations, "required")


def parse_template(file_name: str, content: str) -> dict[str, Any]:
    """Gitea's ``IssueTemplate`` of one file (``file_name`` is its path), or ``TemplateError``."""
    is_markdown = file_name.endswith(".md")
    if is_markdown:
        front, body = _front_matter(content)
        document = yaml_document(front)
    else:
        document, body = yaml_document(content), ""
    about = _text(document, "about") or ("" if is_markdown else _text(document, "description"))
    template: dict[str, Any] = {
        "name": _text(document, "name"),
        "title": _text(document, "title"),
        "about": about,
        "labels": _string_list(document, "labels"),
        "assignees": _string_list(document, "assignees"),
        "ref": _text(document, "ref"),
        "content": body,
        "body": None if is_markdown else _fields(document),
        "file_name": file_name,
    }
    if not template["name"].strip():
        raise TemplateError("'name' is required")
    if not template["about"].strip():
        raise TemplateError("'about' is required")
    if not is_markdown:
        if not template["body"]:
            raise TemplateError("'body' is required")
        ids: set[str] = set()
        for index, field in enumerate(template["body"]):
            _validate_field(index, field, ids)
    if not template["ref"].startswith("refs/"):
        template["ref"] = "refs/heads/" + template["ref"]
    return template
