"""Who may call each route: one declared rule per Flask endpoint, so access is inspectable and tested.

The checks themselves stay where they run (``auth.check_scope`` at the top of a handler, before any
lookup; the signature, runner and Git checks of the other wire surfaces). This table says which of
those checks every endpoint makes, and ``tests/test_security_routes.py`` holds the two together: it
fails on an endpoint without a rule or a rule without an endpoint, and it calls every token-scoped
route with a token lacking each declared category (403 expected) and with a token holding exactly the
declared categories (no scope refusal expected). A ``token`` rule needs ``read:`` on its categories
for GET/HEAD and ``write:`` for every other method, as Gitea's scopes do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "ADMIN",
    "ADMIN_WRITE",
    "GIT",
    "JOB_OR_SIGNED",
    "JOB_TOKEN_REFUSAL",
    "PUBLIC",
    "RULES",
    "RUNNER",
    "SIGNED",
    "Rule",
    "basic",
    "job_token_may",
    "token",
]

Kind = Literal["public", "token", "basic", "admin", "signed", "runner", "job", "git"]


@dataclass(frozen=True)
class Rule:
    """How a route authenticates its caller and, for account tokens, which scope categories it needs."""

    kinds: tuple[Kind, ...]
    """``public`` (nobody), ``token`` (an account token, basic auth or a job token, the latter confined by
    :func:`job_token_may`), ``basic`` (basic auth with the account's password; a token, even as the
    password, is refused), ``admin`` (a site administrator with ``admin`` scope),
    ``signed`` (a signed URL, never an account token), ``runner`` (a runner's uuid and token, or a
    registration token for Register), ``job`` (an Actions runtime token), ``git`` (Git credentials: a
    password, an account, job or deploy token as password; an LFS transfer token on LFS routes only)."""
    categories: tuple[str, ...] = ()
    """Scope categories an account token needs (all of them); empty for ``token``: any valid token."""
    anonymous_read: bool = False
    """Whether an anonymous GET is let through to the permission check (public resources)."""
    write_on_read: bool = False
    """Whether even GET needs ``write:`` (the legacy GET of a runner registration token creates one)."""


def token(*categories: str, anonymous_read: bool = False, write_on_read: bool = False) -> Rule:
    """An account-token route needing every category in ``categories``."""
    return Rule(("token",), tuple(categories), anonymous_read, write_on_read)


def basic(*categories: str) -> Rule:
    """A route that needs the account's password in basic authentication (token management)."""
    return Rule(("basic",), tuple(categories))


PUBLIC = Rule(("public",))
ADMIN = Rule(("admin",), ("admin",))
ADMIN_WRITE = Rule(("admin",), ("admin",), write_on_read=True)
"""An admin route whose GET also needs ``write:admin`` (registration tokens)."""
SIGNED = Rule(("signed",))
RUNNER = Rule(("runner",))
GIT = Rule(("git",))
JOB_OR_SIGNED = Rule(("job", "signed"))
"""The artifact service: RPCs with the runtime token, ``UploadArtifact``/``DownloadArtifact`` signed."""

RULES: Mapping[str, Rule] = {
    # Flask's static route (the app has no static folder: always 404)
    "static": PUBLIC,
    # users.routes
    "adminCreateUser": ADMIN,
    "adminDeleteUser": ADMIN,
    "adminSearchUsers": ADMIN,
    "adminGetAllOrgs": ADMIN,
    "userGetCurrent": token("user"),
    "userGet": token("user", anonymous_read=True),
    "userCreateToken": basic("user"),
    "userGetTokens": basic("user"),
    "userDeleteAccessToken": basic("user"),
    # users.token_self
    "getCurrentToken": token(),
    "deleteCurrentToken": token(),
    # users.settings
    "getUserSettings": token("user"),
    "updateUserSettings": token("user"),
    # orgs.routes
    "orgCreate": token("organization"),
    "orgGet": token("organization", anonymous_read=True),
    "orgEdit": token("organization"),
    "orgDelete": token("organization"),
    "renameOrg": token("organization"),
    "orgListMembers": token("organization"),
    "orgIsMember": token("organization"),
    "orgDeleteMember": token("organization"),
    "orgListPublicMembers": token("organization", anonymous_read=True),
    "orgIsPublicMember": token("organization", anonymous_read=True),
    "orgPublicizeMember": token("organization"),
    "orgConcealMember": token("organization"),
    "orgListTeams": token("organization"),
    "orgCreateTeam": token("organization"),
    "orgGetTeam": token("organization"),
    "orgEditTeam": token("organization"),
    "orgDeleteTeam": token("organization"),
    "orgListTeamMembers": token("organization"),
    "orgListTeamMember": token("organization"),
    "orgAddTeamMember": token("organization"),
    "orgRemoveTeamMember": token("organization"),
    "orgListTeamRepos": token("organization"),
    "orgListTeamRepo": token("organization"),
    "orgAddTeamRepository": token("organization"),
    "orgRemoveTeamRepository": token("organization"),
    "orgListCurrentUserOrgs": token("organization", "user"),
    "orgListUserOrgs": token("organization", "user", anonymous_read=True),
    "userListTeams": token("organization", "user"),
    # repos.routes
    "createCurrentUserRepo": token("repository", "user"),
    "userCurrentListRepos": token("repository", "user"),
    "createOrgRepo": token("organization", "repository"),
    "orgListRepos": token("organization", "repository", anonymous_read=True),
    "repoGet": token("repository", anonymous_read=True),
    "repoEdit": token("repository"),
    "repoDelete": token("repository"),
    "repoChangeFiles": token("repository"),
    "repoGetContentsExtRoot": token("repository", anonymous_read=True),
    "repoGetContentsExtRootSlash": token("repository", anonymous_read=True),
    "repoGetContentsExt": token("repository", anonymous_read=True),
    "repoGetFileContents": token("repository", anonymous_read=True),
    "repoGetFileContentsPost": token("repository"),
    "repoApplyDiffPatch": token("repository"),
    "repoGetContentsList": token("repository", anonymous_read=True),
    "repoGetContents": token("repository", anonymous_read=True),
    "repoCreateFile": token("repository"),
    "repoUpdateFile": token("repository"),
    "repoDeleteFile": token("repository"),
    # repos.githttp
    "gitInfoRefs": GIT,
    "gitServiceRpc": GIT,
    # collaborators.routes
    "repoListCollaborators": token("repository"),
    "repoCheckCollaborator": token("repository"),
    "repoAddCollaborator": token("repository"),
    "repoDeleteCollaborator": token("repository"),
    "repoGetRepoPermissions": token("repository"),
    # commits.routes
    "repoGetAllCommits": token("repository", anonymous_read=True),
    "repoGetSingleCommit": token("repository", anonymous_read=True),
    "repoCompareDiff": token("repository", anonymous_read=True),
    # branches.routes
    "repoListBranches": token("repository", anonymous_read=True),
    "repoCreateBranch": token("repository"),
    "repoGetBranch": token("repository", anonymous_read=True),
    "repoDeleteBranch": token("repository"),
    "repoRenameBranch": token("repository"),
    "repoUpdateBranch": token("repository"),
    # forks.routes
    "createFork": token("repository"),
    "listForks": token("repository", anonymous_read=True),
    "repoMergeUpstream": token("repository"),
    "repoSyncForkDefaultInfo": token("repository", anonymous_read=True),
    "repoSyncForkBranchInfo": token("repository", anonymous_read=True),
    "repoSyncForkDefault": token("repository"),
    "repoSyncForkBranch": token("repository"),
    "repoMigrate": token("repository"),
    "repoMirrorSync": token("repository"),
    # actions.routes
    "actions_list_workflows_get": token("repository"),
    "actions_get_workflow_get": token("repository"),
    "actions_disable_workflow_put": token("repository"),
    "actions_enable_workflow_put": token("repository"),
    "actions_dispatch_post": token("repository"),
    "actions_list_runs_get": token("repository"),
    "actions_get_run_get": token("repository", anonymous_read=True),
    "actions_delete_run_delete": token("repository"),
    "actions_list_run_jobs_get": token("repository", anonymous_read=True),
    "actions_cancel_run_post": token("repository"),
    "actions_list_jobs_get": token("repository"),
    "actions_get_job_get": token("repository"),
    "actions_get_job_logs_get": token("repository"),
    "actions_list_tasks_get": token("repository", anonymous_read=True),
    # actions.scopes
    "actions_repo_token_post": token("repository"),
    "actions_repo_token_get": token("repository", write_on_read=True),
    "actions_repo_replace_token_delete": token("repository"),
    "actions_repo_runners_get": token("repository"),
    "actions_repo_get_runner_get": token("repository"),
    "actions_repo_delete_runner_delete": token("repository"),
    "actions_repo_edit_runner_patch": token("repository"),
    "actions_user_token_post": token("user"),
    "actions_user_token_get": token("user", write_on_read=True),
    "actions_user_replace_token_delete": token("user"),
    "actions_user_runners_get": token("user"),
    "actions_user_get_runner_get": token("user"),
    "actions_user_delete_runner_delete": token("user"),
    "actions_user_edit_runner_patch": token("user"),
    "actions_org_token_post": token("organization"),
    "actions_org_token_get": token("organization", write_on_read=True),
    "actions_org_replace_token_delete": token("organization"),
    "actions_org_runners_get": token("organization"),
    "actions_org_get_runner_get": token("organization"),
    "actions_org_delete_runner_delete": token("organization"),
    "actions_org_edit_runner_patch": token("organization"),
    "actions_admin_token_post": ADMIN,
    "actions_admin_token_get": ADMIN_WRITE,
    "actions_admin_replace_token_delete": ADMIN,
    "actions_admin_runners_get": ADMIN,
    "actions_admin_get_runner_get": ADMIN,
    "actions_admin_delete_runner_delete": ADMIN,
    "actions_admin_edit_runner_patch": ADMIN,
    "actions_admin_legacy_token": ADMIN_WRITE,
    "actions_user_runs": token("user"),
    "actions_user_jobs": token("user"),
    "actions_org_runs": token("organization"),
    "actions_org_jobs": token("organization"),
    "actions_admin_runs": ADMIN,
    "actions_admin_jobs": ADMIN,
    # actions.config_routes
    "actions_repo_list_secrets": token("repository"),
    "actions_repo_put_secret": token("repository"),
    "actions_repo_delete_secret": token("repository"),
    "actions_repo_list_variables": token("repository"),
    "actions_repo_get_variable": token("repository"),
    "actions_repo_create_variable": token("repository"),
    "actions_repo_update_variable": token("repository"),
    "actions_repo_delete_variable": token("repository"),
    "actions_org_list_secrets": token("organization"),
    "actions_org_put_secret": token("organization"),
    "actions_org_delete_secret": token("organization"),
    "actions_org_list_variables": token("organization"),
    "actions_org_get_variable": token("organization"),
    "actions_org_create_variable": token("organization"),
    "actions_org_update_variable": token("organization"),
    "actions_org_delete_variable": token("organization"),
    "actions_user_put_secret": token("user"),
    "actions_user_delete_secret": token("user"),
    "actions_user_list_variables": token("user"),
    "actions_user_get_variable": token("user"),
    "actions_user_create_variable": token("user"),
    "actions_user_update_variable": token("user"),
    "actions_user_delete_variable": token("user"),
    # actions.runner_protocol
    "actions_runner_protocol": RUNNER,
    # artifacts.routes
    "artifacts_twirp": JOB_OR_SIGNED,
    # artifacts.rest_api
    "artifacts_list": token("repository", anonymous_read=True),
    "artifacts_of_run": token("repository", anonymous_read=True),
    "artifacts_get": token("repository", anonymous_read=True),
    "artifacts_delete": token("repository"),
    "artifacts_zip": token("repository", anonymous_read=True),
    "artifacts_zip_raw": SIGNED,
    # webhooks.routes
    "repoListHooks": token("repository"),
    "repoCreateHook": token("repository"),
    "repoGetHook": token("repository"),
    "repoEditHook": token("repository"),
    "repoDeleteHook": token("repository"),
    "repoTestHook": token("repository"),
    # deploy_tokens.routes
    "repoListKeys": token("repository"),
    "repoCreateDeployToken": token("repository"),
    "repoRegenerateDeployToken": token("repository"),
    "repoGetKey": token("repository"),
    "repoDeleteKey": token("repository"),
    # lfs.routes
    "lfsBatch": GIT,
    "lfsUpload": GIT,
    "lfsDownload": GIT,
    "lfsVerify": GIT,
    "lfsListLocks": GIT,
    "lfsCreateLock": GIT,
    "lfsVerifyLocks": GIT,
    "lfsUnlock": GIT,
    "repoGetRawFileOrLFS": token("repository", anonymous_read=True),
    # protections.routes
    "repoListBranchProtection": token("repository"),
    "repoCreateBranchProtection": token("repository"),
    "repoUpdateBranchProtectionPriories": token("repository"),
    "repoGetBranchProtection": token("repository"),
    "repoEditBranchProtection": token("repository"),
    "repoDeleteBranchProtection": token("repository"),
    "repoListTagProtection": token("repository"),
    "repoCreateTagProtection": token("repository"),
    "repoGetTagProtection": token("repository"),
    "repoEditTagProtection": token("repository"),
    "repoDeleteTagProtection": token("repository"),
    # misc.routes
    "getVersion": PUBLIC,
    "getGeneralAPISettings": PUBLIC,
    "swaggerJson": PUBLIC,
    "openapi3Json": PUBLIC,
    "referenceGetClock": ADMIN,
    "referenceSetClock": ADMIN,
    "referenceSetHost": ADMIN,
    # templates.routes
    "listLicenseTemplates": PUBLIC,
    "getLicenseTemplateInfo": PUBLIC,
    "listGitignoresTemplates": PUBLIC,
    "getGitignoreTemplateInfo": PUBLIC,
    "listLabelTemplates": PUBLIC,
    "getLabelTemplateInfo": PUBLIC,
    # labels.routes
    "issueListLabels": token("issue", anonymous_read=True),
    "issueCreateLabel": token("issue"),
    "issueGetLabel": token("issue", anonymous_read=True),
    "issueEditLabel": token("issue"),
    "issueDeleteLabel": token("issue"),
    # licenses.routes
    "repoGetLicenses": token("repository", anonymous_read=True),
    # avatars.routes
    "userUpdateAvatar": token("user"),
    "userDeleteAvatar": token("user"),
    "repoUpdateAvatar": token("repository"),
    "repoDeleteAvatar": token("repository"),
    "orgUpdateAvatar": token("organization"),
    "orgDeleteAvatar": token("organization"),
    "avatarPicture": PUBLIC,
    "repoAvatarPicture": PUBLIC,
    # issues.routes
    "issueListIssues": token("issue", anonymous_read=True),
    "issueCreateIssue": token("issue"),
    "issueGetIssue": token("issue", anonymous_read=True),
    "issueEditIssue": token("issue"),
    "issueGetComments": token("issue", anonymous_read=True),
    "issueCreateComment": token("issue"),
    "issueGetComment": token("issue", anonymous_read=True),
    "issueEditComment": token("issue"),
    "issueDeleteComment": token("issue"),
    "issueGetCommentsAndTimeline": token("issue", anonymous_read=True),
    "issueLockIssue": token("issue"),
    "issueUnlockIssue": token("issue"),
    # pulls.routes
    "repoListPullRequests": token("repository", anonymous_read=True),
    "repoCreatePullRequest": token("repository"),
    "repoGetPullRequest": token("repository", anonymous_read=True),
    "repoEditPullRequest": token("repository"),
    "repoDownloadPullDiffOrPatch": token("repository", anonymous_read=True),
    "repoGetPullRequestCommits": token("repository", anonymous_read=True),
    "repoGetPullRequestFiles": token("repository", anonymous_read=True),
    "repoUpdatePullRequest": token("repository"),
    "repoMergePullRequest": token("repository"),
    "repoPullRequestIsMerged": token("repository", anonymous_read=True),
    "repoListPullReviews": token("repository", anonymous_read=True),
    "repoCreatePullReview": token("repository"),
    "repoGetPullReview": token("repository", anonymous_read=True),
    "repoGetPullReviewComments": token("repository", anonymous_read=True),
    "repoCreatePullReviewCommentReply": token("repository"),
    # topics.routes
    "repoListTopics": token("repository", anonymous_read=True),
    "repoUpdateTopics": token("repository"),
    "repoAddTopic": token("repository"),
    "repoDeleteTopic": token("repository"),
    "topicSearch": token("repository", anonymous_read=True),
    # badges.routes
    "adminListUserBadges": ADMIN,
    "adminAddUserBadges": ADMIN,
    "adminDeleteUserBadges": ADMIN,
    "referenceListBadges": ADMIN,
    "referenceDefineBadge": ADMIN,
    "referenceForgetBadge": ADMIN,
    # pins.routes
    "pinIssue": token("issue"),
    "unpinIssue": token("issue"),
    "moveIssuePin": token("issue"),
    "repoListPinnedIssues": token("issue", anonymous_read=True),
    "repoListPinnedPullRequests": token("repository", anonymous_read=True),
    "repoNewPinAllowed": token("repository", anonymous_read=True),
    # dependencies.routes
    "issueListIssueDependencies": token("issue", anonymous_read=True),
    "issueCreateIssueDependencies": token("issue"),
    "issueRemoveIssueDependencies": token("issue"),
    "issueListBlocks": token("issue", anonymous_read=True),
    "issueCreateIssueBlocking": token("issue"),
    "issueRemoveIssueBlocking": token("issue"),
    # assignees.routes
    "repoGetAssignees": token("repository"),
    "repoCheckAssignee": token("repository"),
    "issueCheckAssignee": token("issue", anonymous_read=True),
    "issueAddAssignees": token("issue"),
    "issueRemoveAssignees": token("issue"),
    # issue_config.routes
    "repoGetIssueConfig": token("repository", anonymous_read=True),
    "repoValidateIssueConfig": token("repository", anonymous_read=True),
    "repoGetIssueTemplates": token("repository", anonymous_read=True),
    # projects.routes
    "repoListProjects": token("issue", anonymous_read=True),
    "repoCreateProject": token("issue"),
    "repoGetProject": token("issue", anonymous_read=True),
    "repoEditProject": token("issue"),
    "repoDeleteProject": token("issue"),
    "repoListProjectColumns": token("issue", anonymous_read=True),
    "repoCreateProjectColumn": token("issue"),
    "repoMoveProjectColumns": token("issue"),
    "repoGetProjectColumn": token("issue", anonymous_read=True),
    "repoEditProjectColumn": token("issue"),
    "repoDeleteProjectColumn": token("issue"),
    "repoSetDefaultProjectColumn": token("issue"),
    "repoListProjectColumnIssues": token("issue", anonymous_read=True),
    "repoAddIssueToProjectColumn": token("issue"),
    "repoRemoveIssueFromProjectColumn": token("issue"),
    "repoMoveProjectIssue": token("issue"),
    "orgListProjects": token("organization", anonymous_read=True),
    "orgCreateProject": token("organization"),
    "orgGetProject": token("organization", anonymous_read=True),
    "orgEditProject": token("organization"),
    "orgDeleteProject": token("organization"),
    "orgListProjectColumns": token("organization", anonymous_read=True),
    "orgCreateProjectColumn": token("organization"),
    "orgMoveProjectColumns": token("organization"),
    "orgGetProjectColumn": token("organization", anonymous_read=True),
    "orgEditProjectColumn": token("organization"),
    "orgDeleteProjectColumn": token("organization"),
    "orgSetDefaultProjectColumn": token("organization"),
    "orgListProjectColumnIssues": token("organization", anonymous_read=True),
    "orgAddIssueToProjectColumn": token("organization"),
    "orgRemoveIssueFromProjectColumn": token("organization"),
    "orgMoveProjectIssue": token("organization"),
    "userListUserProjects": token("user", anonymous_read=True),
    "userCreateUserProject": token("user"),
    "userGetUserProject": token("user", anonymous_read=True),
    "userEditUserProject": token("user"),
    "userDeleteUserProject": token("user"),
    "userListUserProjectColumns": token("user", anonymous_read=True),
    "userCreateUserProjectColumn": token("user"),
    "userMoveUserProjectColumns": token("user"),
    "userGetUserProjectColumn": token("user", anonymous_read=True),
    "userEditUserProjectColumn": token("user"),
    "userDeleteUserProjectColumn": token("user"),
    "userSetDefaultUserProjectColumn": token("user"),
    "userListUserProjectColumnIssues": token("user", anonymous_read=True),
    "userAddIssueToUserProjectColumn": token("user"),
    "userRemoveIssueFromUserProjectColumn": token("user"),
    "userMoveUserProjectIssue": token("user"),
    "userListProjects": token("issue"),
    "userCreateProject": token("issue"),
    "userGetProject": token("issue"),
    "userEditProject": token("issue"),
    "userDeleteProject": token("issue"),
    "userListProjectColumns": token("issue"),
    "userCreateProjectColumn": token("issue"),
    "userMoveProjectColumns": token("issue"),
    "userGetProjectColumn": token("issue"),
    "userEditProjectColumn": token("issue"),
    "userDeleteProjectColumn": token("issue"),
    "userSetDefaultProjectColumn": token("issue"),
    "userListProjectColumnIssues": token("issue"),
    "userAddIssueToProjectColumn": token("issue"),
    "userRemoveIssueFromProjectColumn": token("issue"),
    "userMoveProjectIssue": token("issue"),
    # feeds.routes
    "userListActivityFeeds": token("user", anonymous_read=True),
    "repoListActivityFeeds": token("repository", anonymous_read=True),
    "orgListActivityFeeds": token("organization", anonymous_read=True),
    "orgListTeamActivityFeeds": token("organization"),
    # markup.routes
    "renderMarkup": token("misc"),
    "renderMarkdown": token("misc"),
    "renderMarkdownRaw": token("misc"),
    "repoRenderMarkup": token("repository"),
    "repoRenderMarkdown": token("repository"),
    "repoRenderMarkdownRaw": token("repository"),
}

# -- job tokens ------------------------------------------------------------------------------------

JOB_TOKEN_REFUSAL = "job tokens may only act on their own repository"  # noqa: S105 - a message
REPOSITORY_PREFIX = "/api/v1/repos/<owner>/<repo>"
JOB_READS_REFUSED = ("/api/v1/user/", "/api/v1/admin", "/api/v1/users/<username>/tokens", "/api/v1/orgs/<org>/actions")
JOB_RENDERING = frozenset({"renderMarkup", "renderMarkdown", "renderMarkdownRaw"})
"""Instance-level POST routes that only compute an answer (no state), open to a job's markup previews."""


def job_token_may(path: str, method: str, endpoint: str) -> bool:
    """Whether an Actions job token (``GITEA_TOKEN``) may call a REST route (its URL rule and method).

    A job token acts for its own repository only: every route of a repository (the repository
    permission then allows its own repository, and reading public ones); elsewhere only reads of
    instance-wide or public information and ``GET /user`` (who it is). Never user- or
    organization-level state, a runner registration, a repository or organization of its own, or
    another token. Refused with 403 :data:`JOB_TOKEN_REFUSAL` before the route runs; ``/token``
    answers a job token itself (404, as Gitea)."""
    if not path.startswith("/api/v1/") or path.startswith(REPOSITORY_PREFIX + "/") or path == REPOSITORY_PREFIX:
        return True
    if path == "/api/v1/token" or endpoint in JOB_RENDERING:
        return True
    if method not in ("GET", "HEAD"):
        return False
    return path == "/api/v1/user" or not path.startswith(JOB_READS_REFUSED)
