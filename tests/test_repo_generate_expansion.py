"""Template expansion as Gitea 1.27 does it: xstrings 1.5's case variants (held to the library's own documented
examples), Go's ``os.Expand`` rules, and the path sanitizing of generated files."""

from __future__ import annotations

import pytest

from reference_server.repo_generate.casing import to_camel, to_kebab, to_pascal, to_snake, to_title, to_upper
from reference_server.repo_generate.expansion import expand, sanitized_path

SNAKE = {
    "FirstName": "first_name",
    "HTTPServer": "http_server",
    "NoHTTPS": "no_https",
    "GO_PATH": "go_path",
    "GO PATH": "go_path",
    "GO-PATH": "go_path",
    "http2xx": "http_2xx",
    "HTTP20xOK": "http_20x_ok",
    "Duration2m3s": "duration_2m3s",
    "Bld4Floor3rd": "bld4_floor_3rd",
}
CAMEL = {
    "some_words": ("someWords", "SomeWords"),
    "http_server": ("httpServer", "HttpServer"),
    "no_https": ("noHttps", "NoHttps"),
    "_complex__case_": ("_complex_Case_", "_Complex_Case_"),
    "some words": ("someWords", "SomeWords"),
    "GOLANG_IS_GREAT": ("golangIsGreat", "GolangIsGreat"),
}


@pytest.mark.parametrize(("text", "snake"), SNAKE.items())
def test_snake_and_kebab_follow_xstrings(text: str, snake: str) -> None:
    assert to_snake(text) == snake
    assert to_kebab(text) == snake.replace("_", "-")


@pytest.mark.parametrize(("text", "forms"), CAMEL.items())
def test_camel_and_pascal_follow_xstrings(text: str, forms: tuple[str, str]) -> None:
    assert (to_camel(text), to_pascal(text)) == forms


def test_a_prefixed_repository_name_in_every_form() -> None:
    name = "ck01lrci-1-my-new_Tool"
    assert to_snake(name) == "ck_01lrci_1_my_new_tool"
    assert to_kebab(name) == "ck-01lrci-1-my-new-tool"
    assert to_camel(name) == "ck01lrci1MyNewTool"
    assert to_pascal(name) == "Ck01lrci1MyNewTool"
    assert to_title(name) == "Ck01lrci-1-My-New_tool"


def test_title_case_breaks_words_as_unicode_does() -> None:
    assert to_title("HELLO world") == "Hello World"
    assert to_title("don't stop") == "Don't Stop"
    assert to_title("3rd") == "3Rd"  # the first cased letter of the word is title-cased


def test_upper_maps_one_character_to_one() -> None:
    assert to_upper("straße") == "STRAßE"


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("$A and ${A}", "x and x"),
        ("${UNKNOWN} $UNKNOWN", "UNKNOWN UNKNOWN"),  # Gitea's mapping answers the bare name
        ("$$ $1 ${*}", "$ 1 *"),  # shell special names
        ("${} gone", " gone"),  # bad syntax is eaten
        ("${A unclosed", "A unclosed"),  # "${" without "}" is eaten
        ("cost: $", "cost: $"),  # a final "$" stays
        ("a $-b", "a -b"),
        ("$ alone", "$ alone"),  # "$" before no name stays
    ],
)
def test_expansion_is_go_os_expand(text: str, expanded: str) -> None:
    assert expand(text, {"A": "x"}) == expanded


def test_expanded_paths_are_sanitized() -> None:
    assert sanitized_path("src/../a<b>/.git/x") == "src/__/a_b_/_git/x"
    assert sanitized_path("docs/CON/readme") == "docs/_/readme"
    assert sanitized_path("/a//b/") == "a/b"
