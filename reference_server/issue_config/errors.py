"""Error conditions of the issue configuration family: none of its own. A missing or invalid file is
never an error (Gitea answers the defaults, and the validation route says what is wrong); an unknown or
invisible repository is the repos family's 404."""

from __future__ import annotations

__all__: list[str] = []
