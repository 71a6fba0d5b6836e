"""Signed URLs and runtime tokens follow the injectable clock, not the machine's."""

from __future__ import annotations

from reference_server.signing import Signer, UrlCheck

SECRET = b"k" * 32
NOW = 2_000_000_000.0


def test_runtime_token_issued_on_a_moved_clock_is_valid_on_that_clock() -> None:
    signer = Signer(SECRET)
    token = signer.issue_runtime_token(task_id=7, run_id=3, job_id=5, now=NOW, lifetime=3600)
    claims = signer.decode_runtime_token(token, now=NOW + 10)
    assert claims is not None
    assert (claims["TaskID"], claims["RunID"], claims["JobID"]) == (7, 3, 5)
    assert claims["scp"] == "Actions.Results:3:5"
    assert signer.decode_runtime_token(token, now=NOW + 3601) is None
    assert Signer(b"x" * 32).decode_runtime_token(token, now=NOW) is None


def test_signed_query_rejects_every_change_and_expires() -> None:
    signer = Signer(SECRET)
    query = signer.sign("DownloadArtifact", {"artifactID": "12", "artifactName": "a"}, now=NOW, lifetime=3600)
    assert signer.check("DownloadArtifact", query, now=NOW) is UrlCheck.OK
    assert signer.check("UploadArtifact", query, now=NOW) is UrlCheck.BAD_SIGNATURE
    assert signer.check("DownloadArtifact", {**query, "artifactID": "13"}, now=NOW) is UrlCheck.BAD_SIGNATURE
    assert signer.check("DownloadArtifact", {**query, "sig": query["sig"] + "="}, now=NOW) is UrlCheck.MALFORMED
    assert signer.check("DownloadArtifact", {**query, "sig": ""}, now=NOW) is UrlCheck.MALFORMED
    assert signer.check("DownloadArtifact", query, now=NOW + 3601) is UrlCheck.EXPIRED
