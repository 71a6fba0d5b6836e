"""Target resolution: options over environment over config file, clear errors, API paths under a sub-path."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.target import ENV_TARGET, ENV_TOKEN, Target, TargetError, TargetSettings, resolve_settings


def test_no_target_anywhere_means_the_embedded_server() -> None:
    assert resolve_settings(None, None, None, environ={}) == TargetSettings(url=None, token=None)


def test_options_win_over_environment_which_wins_over_the_file(tmp_path: Path) -> None:
    config = tmp_path / "target.yaml"
    config.write_text("target: http://file.test\ntoken: from-file\n", encoding="utf-8")
    environ = {ENV_TARGET: "http://env.test/", ENV_TOKEN: "from-env"}
    assert resolve_settings(None, None, config, environ={}) == TargetSettings("http://file.test/", "from-file")
    assert resolve_settings(None, None, config, environ=environ) == TargetSettings("http://env.test/", "from-env")
    assert resolve_settings("http://opt.test", "from-opt", config, environ=environ) == TargetSettings(
        "http://opt.test/", "from-opt"
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("target: [unclosed", "not valid YAML"),
        ("- a list", "must be a mapping"),
        ("target: http://x.test\npassword: y", "unknown keys: password"),
        ("target: 42", "target must be a string"),
    ],
)
def test_a_bad_config_file_is_refused_with_its_reason(tmp_path: Path, content: str, message: str) -> None:
    config = tmp_path / "target.yaml"
    config.write_text(content, encoding="utf-8")
    with pytest.raises(TargetError, match=message):
        resolve_settings(None, None, config, environ={})


def test_a_missing_config_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match="cannot read target config"):
        resolve_settings(None, None, tmp_path / "absent.yaml", environ={})


def test_a_live_target_needs_a_token_and_an_http_url() -> None:
    with pytest.raises(TargetError, match="needs an admin token"):
        resolve_settings("http://forge.test", None, None, environ={})
    with pytest.raises(TargetError, match="must start with http"):
        resolve_settings("forge.test", "t", None, environ={})


def test_the_api_lives_under_the_sub_path() -> None:
    target = Target(base_url="https://forge.test/git/", admin_token="t", is_embedded=False)
    assert target.api_url == "https://forge.test/git/api/v1/"
    assert not target.is_reference
    target.capabilities["reference_clock"] = True
    assert target.is_reference
