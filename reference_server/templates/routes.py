"""Routes of the templates family: list and read license, gitignore and label templates (public, no token)."""

from __future__ import annotations

from flask import Response

from ..access import PUBLIC
from ..endpoints import Endpoint
from ..rest import json_response
from . import models
from .presenters import label_template_to_api

__all__ = ["ENDPOINTS"]

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
    return json_response([label_template_to_api(label) for label in models.label_template(name)])


ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        "GET",
        API + "/licenses",
        "listLicenseTemplates",
        list_license_templates,
        "miscellaneous",
        PUBLIC,
        returns="[license_template_list_entry]",
    ),
    Endpoint(
        "GET",
        API + "/licenses/<name>",
        "getLicenseTemplateInfo",
        get_license_template_info,
        "miscellaneous",
        PUBLIC,
        returns="license_template_info",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/gitignore/templates",
        "listGitignoresTemplates",
        list_gitignores_templates,
        "miscellaneous",
        PUBLIC,
        returns="string_list",
    ),
    Endpoint(
        "GET",
        API + "/gitignore/templates/<name>",
        "getGitignoreTemplateInfo",
        get_gitignore_template_info,
        "miscellaneous",
        PUBLIC,
        returns="gitignore_template_info",
        errors=(404,),
    ),
    Endpoint(
        "GET",
        API + "/label/templates",
        "listLabelTemplates",
        list_label_templates,
        "miscellaneous",
        PUBLIC,
        returns="string_list",
    ),
    Endpoint(
        "GET",
        API + "/label/templates/<name>",
        "getLabelTemplateInfo",
        get_label_template_info,
        "miscellaneous",
        PUBLIC,
        returns="[label_template]",
        errors=(404,),
    ),
)
