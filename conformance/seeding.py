"""Seeded incidental data: what a scenario needs but does not check (full names, e-mail addresses, issue and
comment texts, file contents), drawn with Faker in several locales and scripts.

A run has one seed (``--seed N`` replays it; otherwise a random one, printed in the terminal summary
and written to ``results.json``). Each scenario draws from its own seed, derived from the run's seed
and the scenario's id, so the data of a scenario is the same whichever worker runs it and whatever
ran before it, and ``--seed N -k "<scenario>"`` replays exactly the data of a failure. Every value
passes a forge's validation: e-mail addresses are ASCII, names and texts stay within Gitea's limits.
"""

from __future__ import annotations

import hashlib
import random
import re
import secrets
import unicodedata

from faker import Faker

__all__ = ["LOCALES", "SeededData", "new_run_seed", "scenario_seed"]

LOCALES = ("en_US", "de_DE", "ru_RU", "ja_JP", "ar_AA")
"""Latin, Cyrillic, Japanese (kana and kanji) and Arabic (right to left) text."""
MAX_FULL_NAME = 100
"""Gitea's limit for the full name of a user or an organization (``MaxSize(100)``)."""
ASCII_WORD = re.compile(r"[^a-z0-9]+")
_FAKERS: dict[str, Faker] = {}


def new_run_seed() -> int:
    """A fresh run seed (what a run without ``--seed`` uses)."""
    return secrets.randbelow(10**9)


def scenario_seed(run_seed: int, scenario_id: str) -> int:
    """The seed of one scenario: a hash of the run's seed and the scenario's id (order independent)."""
    digest = hashlib.sha256(f"{run_seed}\x00{scenario_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _faker(locale: str) -> Faker:
    """One Faker per locale and process (building one costs milliseconds; seeding it costs nothing)."""
    found = _FAKERS.get(locale)
    if found is None:
        found = _FAKERS[locale] = Faker(locale)
    return found


def _ascii(text: str) -> str:
    """Lower-case ASCII letters and digits of a text, runs of anything else as one dot."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return ASCII_WORD.sub(".", folded).strip(".")


class SeededData:
    """The incidental data of one scenario, reproducible from its seed.

    Draws are made in step order from one random stream, so a scenario gets the same values every time
    its seed is the same; Faker instances are shared by the process and re-seeded from this stream
    before each draw, so nothing depends on what other scenarios drew.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.random = random.Random(seed)  # noqa: S311 - reproducible test data, not secrets

    def _fake(self, locale: str | None = None) -> Faker:
        chosen = locale or self.locale()
        faker = _faker(chosen)
        faker.seed_instance(self.random.getrandbits(64))
        return faker

    def locale(self) -> str:
        """One of :data:`LOCALES`."""
        return self.random.choice(LOCALES)

    def full_name(self, locale: str | None = None) -> str:
        """A person's full name in some locale's script (within Gitea's 100 characters)."""
        return str(self._fake(locale).name())[:MAX_FULL_NAME].strip()

    def company(self, locale: str | None = None) -> str:
        """An organization's full name (within Gitea's 100 characters)."""
        return str(self._fake(locale).company())[:MAX_FULL_NAME].strip()

    def email(self, unique: str) -> str:
        """An ASCII e-mail address a forge accepts: a name-like local part, ``unique`` to keep it unique.

        ``unique`` must be made of letters, digits, dots, dashes or underscores (a user name is).
        """
        local = _ascii(str(self._fake("en_US").user_name())) or "user"
        return f"{local}.{unique}@{self.random.choice(('example.com', 'example.org', 'example.net'))}"

    def sentence(self, locale: str | None = None) -> str:
        """One sentence (a title, a commit message, a description)."""
        return str(self._fake(locale).sentence()).strip()

    def paragraph(self, locale: str | None = None) -> str:
        """A few sentences (an issue body, a comment)."""
        return str(self._fake(locale).paragraph(nb_sentences=3)).strip()

    def text(self, locale: str | None = None) -> str:
        """Several lines of text ending with a line break (a file's contents)."""
        lines = [str(self._fake(locale).sentence()).strip() for _ in range(self.random.randint(1, 4))]
        return "\n".join(lines) + "\n"

    def colour(self) -> tuple[int, int, int]:
        """An RGB colour (a picture's)."""
        return (self.random.randrange(256), self.random.randrange(256), self.random.randrange(256))

    def data(self, size: int) -> bytes:
        """``size`` bytes of binary content."""
        return self.random.randbytes(size)
