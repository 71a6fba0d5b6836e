"""Gitea 1.27's option models (request bodies): the API description shows them to clients and fuzzers, and
``bodies.check_body`` holds every request to its operation's model.

The models are written in the compact notation of the shared reference notes (``name!: type`` for a
required field; ``str``, ``int``, ``bool``, ``datetime``, ``object``, ``List[T]``, ``Dict[str, T]`` or
another model's name) and turned into JSON Schema objects. An operation without an entry still
declares a JSON object body, so every write operation has a body to generate.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["MODELS", "model_schemas"]

_COMMIT = (
    "author: Identity, branch: str, committer: Identity, dates: CommitDateOptions, force_push: bool, message: str, "
    "new_branch: str, signoff: bool"
)
_PROTECTION = (
    "approvals_whitelist_teams: List[str], approvals_whitelist_username: List[str], "
    "block_admin_merge_override: bool, block_on_official_review_requests: bool, block_on_outdated_branch: bool, "
    "block_on_rejected_reviews: bool, bypass_allowlist_teams: List[str], bypass_allowlist_usernames: List[str], "
    "dismiss_stale_approvals: bool, enable_approvals_whitelist: bool, enable_bypass_allowlist: bool, "
    "enable_force_push: bool, enable_force_push_allowlist: bool, enable_merge_whitelist: bool, enable_push: bool, "
    "enable_push_whitelist: bool, enable_status_check: bool, force_push_allowlist_deploy_keys: bool, "
    "force_push_allowlist_teams: List[str], force_push_allowlist_usernames: List[str], "
    "ignore_stale_approvals: bool, merge_whitelist_teams: List[str], merge_whitelist_usernames: List[str], "
    "priority: int, protected_file_patterns: str, push_whitelist_deploy_keys: bool, push_whitelist_teams: List[str], "
    "push_whitelist_usernames: List[str], require_signed_commits: bool, required_approvals: int, "
    "status_check_contexts: List[str], unprotected_file_patterns: str"
)
MODELS = {
    "AddCollaboratorOption": "permission: str",
    "AddTimeOption": "created: datetime, time!: int, user_name: str",
    "ApplyDiffPatchFileOptions": f"{_COMMIT}, content!: str",
    "ChangeFileOperation": "content: str, from_path: str, operation!: str, path!: str, sha: str",
    "ChangeFilesOptions": f"{_COMMIT}, files!: List[ChangeFileOperation]",
    "CommitDateOptions": "author: datetime, committer: datetime",
    "CreateAccessTokenOption": "name!: str, scopes: List[str]",
    "CreateActionWorkflowDispatch": "inputs: Dict[str, str], ref!: str",
    "CreateBranchProtectionOption": f"{_PROTECTION}, branch_name: str, rule_name: str",
    "CreateBranchRepoOption": "new_branch_name!: str, old_branch_name: str, old_ref_name: str",
    "CreateDeployTokenOption": "title!: str, read_only: bool",
    "CreateKeyOption": "key!: str, read_only: bool, title!: str",
    "CreateFileOptions": f"{_COMMIT}, content!: str",
    "CreateOAuth2ApplicationOptions": (
        "confidential_client: bool, name: str, redirect_uris: List[str], skip_secondary_authorization: bool"
    ),
    "CreateReleaseOption": (
        "body: str, draft: bool, name: str, prerelease: bool, tag_message: str, tag_name!: str, target_commitish: str"
    ),
    "CreateTagOption": "message: str, tag_name!: str, target: str",
    "DeleteEmailOption": "emails: List[str]",
    "DeleteFileOptions": f"{_COMMIT}, sha!: str",
    "CreateEmailOption": "emails: List[str]",
    "CreateForkOption": "name: str, organization: str",
    "CreateGPGKeyOption": "armored_public_key!: str, armored_signature: str",
    "CreateHookOption": (
        "active: bool, authorization_header: str, branch_filter: str, config!: Dict[str, str], events: List[str], "
        "name: str, type!: str"
    ),
    "CreateIssueCommentOption": "body!: str",
    "CreateIssueOption": (
        "assignee: str, assignees: List[str], body: str, closed: bool, due_date: datetime, labels: List[int], "
        "milestone: int, projects: List[int], ref: str, title!: str"
    ),
    "CreateLabelOption": "color!: str, description: str, exclusive: bool, is_archived: bool, name!: str",
    "CreateMilestoneOption": "description: str, due_on: datetime, state: str, title: str",
    "CreateOrUpdateSecretOption": "data!: str, description: str",
    "CreateOrgOption": (
        "description: str, email: str, full_name: str, location: str, repo_admin_change_team_access: bool, "
        "username!: str, visibility: str, website: str"
    ),
    "CreatePullRequestOption": (
        "allow_maintainer_edit: bool, assignee: str, assignees: List[str], base: str, body: str, due_date: datetime, "
        "head: str, labels: List[int], milestone: int, reviewers: List[str], team_reviewers: List[str], title: str"
    ),
    "CreatePullReviewComment": "body: str, new_position: int, old_position: int, path: str",
    "CreatePullReviewCommentReplyOptions": "body: str",
    "CreatePullReviewOptions": "body: str, comments: List[CreatePullReviewComment], commit_id: str, event: str",
    "GenerateRepoOption": (
        "avatar: bool, default_branch: str, description: str, git_content: bool, git_hooks: bool, labels: bool, "
        "name!: str, owner!: str, private: bool, protected_branch: bool, topics: bool, webhooks: bool"
    ),
    "TransferRepoOption": "new_owner!: str, team_ids: List[int]",
    "CreateRepoOption": (
        "auto_init: bool, default_branch: str, description: str, gitignores: str, issue_labels: str, license: str, "
        "name!: str, object_format_name: str, private: bool, readme: str, template: bool, trust_model: str"
    ),
    "CreateStatusOption": "context: str, description: str, state: str, target_url: str",
    "CreatePushMirrorOption": (
        "interval: str, remote_address: str, remote_password: str, remote_username: str, sync_on_commit: bool"
    ),
    "CreateTagProtectionOption": "name_pattern: str, whitelist_teams: List[str], whitelist_usernames: List[str]",
    "CreateTeamOption": (
        "can_create_org_repo: bool, description: str, includes_all_repositories: bool, name!: str, permission: str, "
        "units: List[str], units_map: Dict[str, str], visibility: str"
    ),
    "CreateUserOption": (
        "created_at: datetime, email!: str, full_name: str, login_name: str, must_change_password: bool, "
        "password: str, restricted: bool, send_notify: bool, source_id: int, username!: str, visibility: str"
    ),
    "CreateVariableOption": "description: str, value!: str",
    "CreateWikiPageOptions": "content_base64: str, message: str, title: str",
    "EditGitHookOption": "content: str",
    "EditActionRunnerOption": "disabled!: bool",
    "EditAttachmentOptions": "name: str",
    "EditDeadlineOption": "due_date!: datetime",
    "EditBranchProtectionOption": _PROTECTION,
    "EditHookOption": (
        "active: bool, authorization_header: str, branch_filter: str, config: Dict[str, str], events: List[str], "
        "name: str"
    ),
    "EditIssueCommentOption": "body!: str",
    "EditIssueOption": (
        "assignee: str, assignees: List[str], body: str, content_version: int, due_date: datetime, milestone: int, "
        "projects: List[int], ref: str, state: str, title: str, unset_due_date: bool"
    ),
    "EditLabelOption": "color: str, description: str, exclusive: bool, is_archived: bool, name: str",
    "EditMilestoneOption": "description: str, due_on: datetime, state: str, title: str",
    "EditReactionOption": "content: str",
    "EditOrgOption": (
        "description: str, email: str, full_name: str, location: str, repo_admin_change_team_access: bool, "
        "visibility: str, website: str"
    ),
    "EditPullRequestOption": (
        "allow_maintainer_edit: bool, assignee: str, assignees: List[str], base: str, body: str, "
        "content_version: int, due_date: datetime, labels: List[int], milestone: int, state: str, title: str, "
        "unset_due_date: bool"
    ),
    "EditReleaseOption": "body: str, draft: bool, name: str, prerelease: bool, tag_name: str, target_commitish: str",
    "EditRepoOption": (
        "archived: bool, default_branch: str, description: str, has_actions: bool, has_code: bool, "
        "has_issues: bool, has_projects: bool, has_pull_requests: bool, name: str, private: bool, template: bool, "
        "website: str"
    ),
    "EditTagProtectionOption": "name_pattern: str, whitelist_teams: List[str], whitelist_usernames: List[str]",
    "EditTeamOption": (
        "can_create_org_repo: bool, description: str, includes_all_repositories: bool, name!: str, permission: str, "
        "units: List[str], units_map: Dict[str, str], visibility: str"
    ),
    "EditUserOption": (
        "active: bool, admin: bool, allow_create_organization: bool, allow_git_hook: bool, allow_import_local: bool, "
        "description: str, email: str, full_name: str, location: str, login_name!: str, max_repo_creation: int, "
        "must_change_password: bool, password: str, prohibit_login: bool, restricted: bool, source_id!: int, "
        "visibility: str, website: str"
    ),
    "GetFilesOptions": "files: List[str]",
    "Identity": "email: str, name: str",
    "IssueAssigneesOption": "assignees: List[str]",
    "IssueMeta": "index: int, owner: str, repo: str",
    "LockIssueOption": "lock_reason: str",
    "MarkdownOption": "context: str, mode: str, text: str, wiki: bool",
    "MarkupOption": "context: str, file_path: str, mode: str, text: str, wiki: bool",
    "DismissPullReviewOptions": "message: str, priors: bool",
    "IssueLabelsOption": "labels: List[object]",
    "MergePullRequestOption": (
        "delete_branch_after_merge: bool, do!: str, force_merge: bool, head_commit_id: str, merge_commit_id: str, "
        "merge_message_field: str, merge_title_field: str, merge_when_checks_succeed: bool"
    ),
    "MergeUpstreamRequest": "branch: str, ff_only: bool",
    "MigrateRepoOptions": (
        "auth_password: str, auth_token: str, auth_username: str, clone_addr!: str, description: str, mirror: bool, "
        "mirror_interval: str, private: bool, repo_name!: str, repo_owner: str, service: str, uid: int"
    ),
    "PullReviewRequestOptions": "reviewers: List[str], team_reviewers: List[str]",
    "RenameBranchRepoOption": "name!: str",
    "RenameOrgOption": "new_name!: str",
    "RenameUserOption": "new_name!: str",
    "RepoTopicOptions": "topics: List[str]",
    "SubmitPullReviewOptions": "body: str, event: str",
    "UpdateBranchProtectionPriories": "ids: List[int]",
    "UpdateBranchRepoOption": "force: bool, new_commit_id!: str, old_commit_id: str",
    "UpdateFileOptions": f"{_COMMIT}, content!: str, from_path: str, sha: str",
    "UpdateRepoAvatarOption": "image: str",
    "UpdateUserAvatarOption": "image: str",
    "UpdateVariableOption": "description: str, name: str, value!: str",
    "UserBadgeOption": "badge_slugs: List[str]",
    "UserSettingsOptions": (
        "description: str, diff_view_style: str, full_name: str, hide_activity: bool, hide_email: bool, "
        "language: str, location: str, theme: str, website: str"
    ),
    "VerifyGPGKeyOption": "armored_signature!: str, key_id!: str",
}
_FIELD = re.compile(r"^(?P<name>[a-z_][a-z0-9_]*)(?P<required>!)?: (?P<type>.+)$")


def _type_schema(spec: str, ref: str) -> dict[str, Any]:
    spec = spec.strip()
    if spec.startswith("List[") and spec.endswith("]"):
        return {"type": "array", "items": _type_schema(spec[5:-1], ref)}
    if spec.startswith("Dict[str, ") and spec.endswith("]"):
        return {"type": "object", "additionalProperties": _type_schema(spec[10:-1], ref)}
    simple = {
        "str": {"type": "string"},
        "int": {"type": "integer", "format": "int64"},
        "bool": {"type": "boolean"},
        "datetime": {"type": "string", "format": "date-time"},
        "object": {},
    }
    if spec in simple:
        return dict(simple[spec])
    if spec not in MODELS:
        raise ValueError(f"unknown type {spec!r} in the API body models")
    return {"$ref": ref + spec}


def _split_fields(spec: str) -> list[str]:
    """Split ``a: T, b: Dict[str, U]`` at the top-level commas only."""
    fields, depth, current = [], 0, ""
    for char in spec:
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            fields.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        fields.append(current.strip())
    return fields


def model_schemas(ref: str) -> dict[str, dict[str, Any]]:
    """Every option model as a JSON Schema object; ``ref`` prefixes references (``#/definitions/``)."""
    schemas: dict[str, dict[str, Any]] = {}
    for name, spec in sorted(MODELS.items()):
        properties: dict[str, Any] = {}
        required: list[str] = []
        for field in _split_fields(spec):
            match = _FIELD.match(field)
            if match is None:
                raise ValueError(f"malformed field {field!r} of {name}")
            properties[match["name"]] = _type_schema(match["type"], ref)
            if match["required"]:
                required.append(match["name"])
        schema: dict[str, Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = sorted(required)
        schemas[name] = schema
    return schemas
