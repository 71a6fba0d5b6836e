"""Success answers of the API description: which ``schemas/`` file each operation's body matches.

The mapping follows the scenarios, which validate the same answers with ``the response matches the
schema "X"`` (or ``every item of the response ...``, written ``[X]`` here). The kit's schemas are JSON
Schema 2020-12 with cross-file ``$ref``s; the OpenAPI 3.0.3 document (Gitea serves 3.0.3) gets them
converted into ``components/schemas`` (``schema_<name>``), so Schemathesis validates success bodies.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "RESPONSE_SCHEMAS",
    "SUCCESS_STATUS_KEY",
    "component_name",
    "convert_schema",
    "openapi30_components",
    "success_response",
]

SCHEMAS_DIR = Path(__file__).resolve().parents[2] / "schemas"
"""The kit's ``schemas/`` directory, next to the ``reference_server`` package in the checkout."""

_PROJECTS = {
    "List{s}Projects": (200, "[project]"),
    "Create{s}Project": (201, "project"),
    "Get{s}Project": (200, "project"),
    "Edit{s}Project": (200, "project"),
    "List{s}ProjectColumns": (200, "[project_column]"),
    "Create{s}ProjectColumn": (201, "project_column"),
    "Get{s}ProjectColumn": (200, "project_column"),
    "Edit{s}ProjectColumn": (200, "project_column"),
    "List{s}ProjectColumnIssues": (200, "[issue]"),
}
_PROJECT_OWNERS = {"org": "", "repo": "", "user": "", "userUser": ""}
_RUNNERS = {
    "actions_{s}_runners_get": (200, "action_runner_list"),
    "actions_{s}_get_runner_get": (200, "action_runner"),
    "actions_{s}_edit_runner_patch": (200, "action_runner"),
    "actions_{s}_token_get": (200, "action_registration_token"),
    "actions_{s}_token_post": (200, "action_registration_token"),
    "actions_{s}_list_variables": (200, "[action_variable]"),
    "actions_{s}_get_variable": (200, "action_variable"),
}
_RUNNER_SCOPES = ("admin", "org", "repo", "user")
_GROUPS = {
    **{f"actions_{scope}_jobs": (200, "action_workflow_job_list") for scope in ("admin", "org", "user")},
    **{f"actions_{scope}_runs": (200, "action_workflow_run_list") for scope in ("admin", "org", "user")},
    **{
        key.format(s=scope): value
        for scope in _RUNNER_SCOPES
        for key, value in _RUNNERS.items()
        if not (scope == "admin" and "variable" in key)
    },
    **{
        (owner + key.format(s="")) if owner != "userUser" else "user" + key.format(s="User"): value
        for owner in _PROJECT_OWNERS
        for key, value in _PROJECTS.items()
    },
}

_TEXT_OR_FILE = (
    *("renderMarkdown", "renderMarkdownRaw", "renderMarkup", "repoRenderMarkdown", "repoRenderMarkdownRaw"),
    *("repoRenderMarkup", "repoDownloadPullDiffOrPatch", "repoGetRawFileOrLFS", "actions_get_job_logs_get"),
    "artifacts_zip_raw",
)
"""Issue 14 item 4: rendered HTML, a diff, a log, a file or a zip, in their own media types."""
_CREATED_EMPTY = (
    *(f"actions_{scope}_put_secret" for scope in ("org", "repo", "user")),
    *(f"actions_{scope}_create_variable" for scope in ("org", "repo", "user")),
    *("orgAddIssueToProjectColumn", "repoAddIssueToProjectColumn", "userAddIssueToProjectColumn"),
    "userAddIssueToUserProjectColumn",
)
"""Issue 14 item 4: 201 without a body, as Gitea answers (a secret that already existed answers 204)."""
_PROJECT_CHANGES = (
    "Delete{s}Project",
    "Move{s}ProjectColumns",
    "Delete{s}ProjectColumn",
    "SetDefault{s}ProjectColumn",
    "RemoveIssueFrom{s}ProjectColumn",
    "Move{s}ProjectIssue",
)
_NO_CONTENT = (
    *(f"actions_{scope}_replace_token_delete" for scope in _RUNNER_SCOPES),
    *(f"actions_{scope}_delete_runner_delete" for scope in _RUNNER_SCOPES),
    *(f"actions_{scope}_{verb}" for scope in ("org", "repo", "user") for verb in ("delete_secret", "delete_variable")),
    *(f"actions_{scope}_update_variable" for scope in ("org", "repo", "user")),
    *("actions_delete_run_delete", "actions_cancel_run_post", "actions_disable_workflow_put"),
    *("actions_enable_workflow_put", "artifacts_delete"),
    *(owner + key.format(s="") for owner in ("org", "repo", "user") for key in _PROJECT_CHANGES),
    *("user" + key.format(s="User") for key in _PROJECT_CHANGES),
    *("adminDeleteUser", "adminDeleteUserBadges", "adminAddUserBadges", "orgDelete", "renameOrg"),
    *("orgDeleteAvatar", "orgUpdateAvatar", "repoDeleteAvatar", "repoUpdateAvatar", "userDeleteAvatar"),
    *("userUpdateAvatar", "orgDeleteMember", "orgIsMember", "orgConcealMember", "orgIsPublicMember"),
    *("orgPublicizeMember", "orgDeleteTeam", "orgRemoveTeamMember", "orgAddTeamMember", "orgRemoveTeamRepository"),
    *("orgAddTeamRepository", "repoDelete", "repoCheckAssignee", "issueCheckAssignee", "repoDeleteCollaborator"),
    *("repoCheckCollaborator", "repoAddCollaborator", "repoUpdateBranchProtectionPriories"),
    *("repoDeleteBranchProtection", "repoDeleteBranch", "repoRenameBranch", "repoUpdateBranch"),
    *("repoDeleteTagProtection", "repoDeleteHook", "repoTestHook", "repoDeleteKey", "issueDeleteLabel"),
    *("issueDeleteComment", "issueLockIssue", "issueUnlockIssue", "pinIssue", "unpinIssue", "moveIssuePin"),
    *("repoPullRequestIsMerged", "repoSyncForkDefault", "repoSyncForkBranch", "repoUpdateTopics"),
    *("repoAddTopic", "repoDeleteTopic", "deleteCurrentToken", "userDeleteAccessToken"),
)
"""Issue 14 item 4: 204 No Content (deletions, membership checks, changes Gitea acknowledges without a body)."""

RESPONSE_SCHEMAS: dict[str, tuple[int, str]] = {
    **_GROUPS,
    "actions_admin_legacy_token_get": (200, "action_registration_token"),
    "actions_admin_legacy_token_post": (200, "action_registration_token"),
    "adminGetAllOrgs": (200, "[organization]"),
    "adminSearchUsers": (200, "[user]"),
    "adminCreateUser": (201, "user"),
    "adminListUserBadges": (200, "[badge]"),
    "listGitignoresTemplates": (200, "string_list"),
    "getGitignoreTemplateInfo": (200, "gitignore_template_info"),
    "listLabelTemplates": (200, "string_list"),
    "getLabelTemplateInfo": (200, "[label_template]"),
    "listLicenseTemplates": (200, "[license_template_list_entry]"),
    "getLicenseTemplateInfo": (200, "license_template_info"),
    "orgCreate": (201, "organization"),
    "orgGet": (200, "organization"),
    "orgEdit": (200, "organization"),
    "actions_org_list_secrets": (200, "[secret]"),
    "actions_repo_list_secrets": (200, "[secret]"),
    "orgListActivityFeeds": (200, "[activity]"),
    "repoListActivityFeeds": (200, "[activity]"),
    "userListActivityFeeds": (200, "[activity]"),
    "orgListTeamActivityFeeds": (200, "[activity]"),
    "orgListMembers": (200, "[user]"),
    "orgListPublicMembers": (200, "[user]"),
    "orgListRepos": (200, "[repository]"),
    "createOrgRepo": (201, "repository"),
    "orgListTeams": (200, "[team]"),
    "orgCreateTeam": (201, "team"),
    "repoMigrate": (201, "repository"),
    "repoGet": (200, "repository"),
    "repoEdit": (200, "repository"),
    "artifacts_list": (200, "artifact_list"),
    "artifacts_get": (200, "artifact"),
    "artifacts_of_run": (200, "artifact_list"),
    "actions_list_jobs_get": (200, "action_workflow_job_list"),
    "actions_get_job_get": (200, "action_workflow_job"),
    "actions_list_runs_get": (200, "action_workflow_run_list"),
    "actions_get_run_get": (200, "action_workflow_run"),
    "actions_list_run_jobs_get": (200, "action_workflow_job_list"),
    "actions_list_tasks_get": (200, "action_task_list"),
    "actions_list_workflows_get": (200, "action_workflow_list"),
    "actions_get_workflow_get": (200, "action_workflow"),
    "actions_dispatch_post": (200, "action_run_details"),
    "repoGetAssignees": (200, "[user]"),
    "repoListBranchProtection": (200, "[branch_protection]"),
    "repoCreateBranchProtection": (201, "branch_protection"),
    "repoGetBranchProtection": (200, "branch_protection"),
    "repoEditBranchProtection": (200, "branch_protection"),
    "repoListBranches": (200, "[branch]"),
    "repoCreateBranch": (201, "branch"),
    "repoGetBranch": (200, "branch"),
    "repoListCollaborators": (200, "[user]"),
    "repoGetRepoPermissions": (200, "repo_collaborator_permission"),
    "repoGetAllCommits": (200, "[commit]"),
    "repoCompareDiff": (200, "compare"),
    "repoGetSingleCommit": (200, "commit"),
    "repoGetContentsList": (200, "contents_list"),
    "repoGetContentsExtRoot": (200, "contents_ext"),
    "repoGetContentsExtRootSlash": (200, "contents_ext"),
    "repoGetContentsExt": (200, "contents_ext"),
    "repoGetContents": (200, "contents|contents_list"),
    "repoChangeFiles": (201, "files_response"),
    "repoCreateFile": (201, "file_response"),
    "repoUpdateFile": (200, "file_response"),
    "repoDeleteFile": (200, "file_delete_response"),
    "repoApplyDiffPatch": (201, "file_patch_response"),
    "repoGetFileContents": (200, "file_contents_list"),
    "repoGetFileContentsPost": (200, "file_contents_list"),
    "listForks": (200, "[repository]"),
    "createFork": (202, "repository"),
    "repoListHooks": (200, "[hook]"),
    "repoCreateHook": (201, "hook"),
    "repoGetHook": (200, "hook"),
    "repoEditHook": (200, "hook"),
    "repoGetIssueConfig": (200, "issue_config"),
    "repoValidateIssueConfig": (200, "issue_config_validation"),
    "repoGetIssueTemplates": (200, "issue_template_list"),  # issue 14 item 4: Gitea answers null for none
    "issueListIssues": (200, "[issue]"),
    "issueCreateIssue": (201, "issue"),
    "issueGetIssue": (200, "issue"),
    "issueEditIssue": (201, "issue"),
    "issueGetComment": (200, "comment"),
    "issueEditComment": (200, "comment"),
    "issueGetComments": (200, "[comment]"),
    "issueCreateComment": (201, "comment"),
    "repoListPinnedIssues": (200, "[issue]"),
    "issueAddAssignees": (201, "issue"),
    "issueRemoveAssignees": (200, "issue"),
    "issueListBlocks": (200, "[issue]"),
    "issueCreateIssueBlocking": (201, "issue"),
    "issueRemoveIssueBlocking": (201, "issue"),
    "issueListIssueDependencies": (200, "[issue]"),
    "issueCreateIssueDependencies": (201, "issue"),
    "issueRemoveIssueDependencies": (201, "issue"),
    "issueGetCommentsAndTimeline": (200, "[timeline_comment]"),
    "repoListKeys": (200, "deploy_key_list"),
    "repoGetKey": (200, "deploy_key"),
    "repoCreateDeployToken": (201, "deploy_token_created"),
    "repoRegenerateDeployToken": (200, "deploy_token_created"),
    "issueListLabels": (200, "[label]"),
    "issueCreateLabel": (201, "label"),
    "issueGetLabel": (200, "label"),
    "issueEditLabel": (200, "label"),
    "repoGetLicenses": (200, "string_list"),
    "repoMergeUpstream": (200, "merge_upstream_response"),
    "repoNewPinAllowed": (200, "new_issue_pins_allowed"),
    "repoListPullRequests": (200, "[pull_request]"),
    "repoCreatePullRequest": (201, "pull_request"),
    "repoListPinnedPullRequests": (200, "[pull_request]"),
    "repoGetPullRequest": (200, "pull_request"),
    "repoEditPullRequest": (201, "pull_request"),
    "repoGetPullRequestCommits": (200, "[commit]"),
    "repoGetPullRequestFiles": (200, "[changed_file]"),
    "repoListPullReviews": (200, "[pull_review]"),
    "repoCreatePullReview": (200, "pull_review"),
    "repoGetPullReview": (200, "pull_review"),
    "repoGetPullReviewComments": (200, "[pull_review_comment]"),
    "repoCreatePullReviewCommentReply": (201, "pull_review_comment"),
    "repoSyncForkDefaultInfo": (200, "sync_fork_info"),
    "repoSyncForkBranchInfo": (200, "sync_fork_info"),
    "repoListTagProtection": (200, "[tag_protection]"),
    "repoCreateTagProtection": (201, "tag_protection"),
    "repoGetTagProtection": (200, "tag_protection"),
    "repoEditTagProtection": (200, "tag_protection"),
    "repoListTopics": (200, "topic_names"),
    "topicSearch": (200, "topic_search"),
    "orgGetTeam": (200, "team"),
    "orgEditTeam": (200, "team"),
    "orgListTeamMembers": (200, "[user]"),
    "orgListTeamMember": (200, "user"),
    "orgListTeamRepos": (200, "[repository]"),
    "orgListTeamRepo": (200, "repository"),
    "getCurrentToken": (200, "current_access_token"),
    "userGetCurrent": (200, "user"),
    "userGet": (200, "user"),
    "orgListCurrentUserOrgs": (200, "[organization]"),
    "orgListUserOrgs": (200, "[organization]"),
    "userCurrentListRepos": (200, "[repository]"),
    "createCurrentUserRepo": (201, "repository"),
    "getUserSettings": (200, "user_settings"),
    "updateUserSettings": (200, "user_settings"),
    "userListTeams": (200, "[team]"),
    "userGetTokens": (200, "[access_token]"),
    "userCreateToken": (201, "access_token"),
    "getVersion": (200, "version"),
    # ---- Issue 14 item 4: the rest of the served operations declare their success answer too; "" is an
    # answer without a JSON body. One block, to move into the families' endpoint tables with the rest.
    "getGeneralAPISettings": (200, "general_api_settings"),
    **dict.fromkeys(_TEXT_OR_FILE, (200, "")),
    **dict.fromkeys(("repoMergePullRequest", "repoMirrorSync", "repoUpdatePullRequest"), (200, "")),
    **dict.fromkeys(_CREATED_EMPTY, (201, "")),
    "artifacts_zip": (302, ""),
    **dict.fromkeys(_NO_CONTENT, (204, "")),
}
"""operationId -> (success status, schema): ``name`` one document, ``[name]`` an array of them,
``a|b`` either (a file's contents or a directory's listing), ``""`` no JSON body (nothing, a file, text,
a redirect)."""

SUCCESS_STATUS_KEY = "x-success-status"
"""The responses' extension naming the declared success status (a string, so tools that read responses
skip it): the only trace of a declared answer without a JSON body, whose status 204 or "2XX" already cover."""

_REF_PREFIX = "#/components/schemas/"
_DROPPED = ("$schema", "$id", "$defs", "$comment")


def component_name(file_name: str, definition: str = "") -> str:
    """``schema_<file>`` for a file, ``schema_<file>__<definition>`` for one of its ``$defs``."""
    base = "schema_" + file_name.removesuffix(".json")
    return f"{base}__{definition}" if definition else base


def _ref(ref: str, file_name: str) -> str:
    """A 2020-12 ``$ref`` (``other.json``, ``other.json#/$defs/x``, ``#/$defs/x``) as a component reference."""
    target, _, pointer = ref.partition("#")
    definition = pointer.removeprefix("/$defs/") if pointer else ""
    if pointer and definition == pointer:
        raise ValueError(f"{file_name}: unsupported $ref {ref!r}")
    return _REF_PREFIX + component_name(target or file_name, definition)


def convert_schema(node: Any, file_name: str) -> Any:
    """One 2020-12 schema node in OpenAPI 3.0's dialect: ``type`` lists and ``null`` become ``nullable``, ``const``
    an ``enum``, ``if``/``then`` an ``anyOf`` (``not if``, or ``then``), and a ``$ref`` with siblings an ``allOf``."""
    if isinstance(node, list):
        return [convert_schema(item, file_name) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED or key in ("if", "then"):
            continue
        if key == "const":
            out["enum"] = [value]
        elif key == "$ref":
            out["$ref"] = _ref(value, file_name)
        elif key in ("properties", "patternProperties"):
            out[key] = {name: convert_schema(sub, file_name) for name, sub in value.items()}
        else:
            out[key] = convert_schema(value, file_name)
    _convert_type(out)
    if "if" in node:
        otherwise = {"not": convert_schema(node["if"], file_name)}
        condition = {"anyOf": [otherwise, convert_schema(node.get("then", {}), file_name)]}
        out.setdefault("allOf", []).append(condition)
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out.setdefault("allOf", []).insert(0, {"$ref": ref})
    return out


def _convert_type(out: dict[str, Any]) -> None:
    """``type: [t, "null"]`` -> ``type: t, nullable: true``; several non-null types -> ``anyOf``; ``type: null``
    -> a nullable string whose only value is null."""
    kinds = out.get("type")
    if kinds == "null":  # 3.0 has no null type: a nullable string that admits only null
        out.update(type="string", nullable=True, enum=[None])
        return
    if not isinstance(kinds, list):
        return
    non_null = [kind for kind in kinds if kind != "null"]
    if len(non_null) < len(kinds):
        out["nullable"] = True
    if len(non_null) == 1:
        out["type"] = non_null[0]
    else:
        del out["type"]
        out.setdefault("anyOf", []).extend({"type": kind} for kind in non_null)


def _referenced_files(names: set[str]) -> set[str]:
    """The mapped files and every file they reach through ``$ref``."""
    seen: set[str] = set()
    pending = sorted(names)
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        text = (SCHEMAS_DIR / f"{name}.json").read_text(encoding="utf-8")
        for ref in _refs(json.loads(text)):
            target = ref.partition("#")[0]
            if target:
                pending.append(target.removesuffix(".json"))
    return seen


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [ref for value in node.values() for ref in _refs(value)]
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    return []


def _mapped_files() -> set[str]:
    return {name.strip("[]") for _, spec in RESPONSE_SCHEMAS.values() if spec for name in spec.split("|")}


@cache
def openapi30_components() -> dict[str, Any]:
    """Every mapped schema file (and its ``$defs``) as OpenAPI 3.0 components; built once per process."""
    components: dict[str, Any] = {}
    for name in sorted(_referenced_files(_mapped_files())):
        document = json.loads((SCHEMAS_DIR / f"{name}.json").read_text(encoding="utf-8"))
        file_name = f"{name}.json"
        for definition, schema in document.get("$defs", {}).items():
            components[component_name(file_name, definition)] = convert_schema(schema, file_name)
        components[component_name(file_name)] = convert_schema(document, file_name)
    return components


def _body_schema(spec: str) -> dict[str, Any]:
    choices = []
    for name in spec.split("|"):
        ref = {"$ref": _REF_PREFIX + component_name(name.strip("[]"))}
        choices.append({"type": "array", "items": ref} if name.startswith("[") else ref)
    return choices[0] if len(choices) == 1 else {"anyOf": choices}


def success_response(operation_id: str) -> dict[str, Any]:
    """The declared success answer of a mapped operation (``{}`` for an unmapped one): its status, marked with
    :data:`SUCCESS_STATUS_KEY`, and its JSON schema when it has one."""
    mapped = RESPONSE_SCHEMAS.get(operation_id)
    if mapped is None:
        return {}
    status, spec = mapped
    if not spec:
        return {SUCCESS_STATUS_KEY: str(status)}
    content = {"application/json": {"schema": _body_schema(spec)}}
    return {str(status): {"description": f"the result ({spec})", "content": content}, SUCCESS_STATUS_KEY: str(status)}
