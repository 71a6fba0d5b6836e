"""Routes of the templates family: list and read license, gitignore and label templates (public, no token)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response

from ..rest import json_response
from . import models

__all__ = ["register"]

API = "/api/v1"


def list_license_templates() -> Response:
    """Every license template (SPDX identifiers)."""
    return json_response(models.license_list())


def get_license_template_info(name: str) -> Response:
    """One license template with its text."""
    return json_response(models.license_info(name))


def list_gitignores_templates() -> Response:
    """The gitignore template names."""
    return json_response(models.gitignore_names())


def get_gitignore_template_info(name: str) -> Response:
    """One gitignore template with its source."""
    return json_response(models.gitignore_info(name))


def list_label_templates() -> Response:
    """The label template names."""
    return json_response(models.label_template_names())


def get_label_template_info(name: str) -> Response:
    """The labels of one label template."""
    return json_response([models.label_template_to_api(label) for label in models.label_template(name)])


def register(app: Flask) -> None:
    """Attach the template routes; endpoint names are Gitea's operation ids."""
    rules: list[tuple[str, str, Callable[..., Response]]] = [
        ("/licenses", "listLicenseTemplates", list_license_templates),
        ("/licenses/<name>", "getLicenseTemplateInfo", get_license_template_info),
        ("/gitignore/templates", "listGitignoresTemplates", list_gitignores_templates),
        ("/gitignore/templates/<name>", "getGitignoreTemplateInfo", get_gitignore_template_info),
        ("/label/templates", "listLabelTemplates", list_label_templates),
        ("/label/templates/<name>", "getLabelTemplateInfo", get_label_template_info),
    ]
    for path, endpoint, view in rules:
        app.add_url_rule(API + path, endpoint=endpoint, view_func=view, methods=["GET"])
