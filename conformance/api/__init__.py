"""Named operations of the forge's API, one small class per area, and the facade steps use.

The pattern, for every area module ``conformance/api/<area>.py``:

* one class deriving from :class:`ApiArea`, named ``<Area>Api``;
* one method per operation, named after what it does (``create``, ``get``, ``delete_file``...), taking
  the path parameters and the body fields as arguments and returning the ``requests.Response``
  unchanged (no raise: steps decide what a status means);
* paths relative to the API root (``/api/v1``) through ``self.http``; operations outside it (the
  API description, signed URLs) through :meth:`ApiArea.absolute` or a full URL.

Steps reach an area through the facade: ``api.repos.create(...)`` for the areas listed on
:class:`ForgeApi`, or ``api.area(ActionsApi)`` for any other area class (the CI areas do so).
"""

from __future__ import annotations

from typing import TypeVar

from ..client import HttpClient
from .base import ApiArea, quote_path
from .contents import ContentsApi
from .misc import MiscApi
from .orgs import OrgsApi
from .repos import ReposApi
from .tokens import TokensApi
from .users import UsersApi

__all__ = ["ApiArea", "ForgeApi", "quote_path"]

AreaT = TypeVar("AreaT", bound=ApiArea)


class ForgeApi:
    """Every area's operations over one identity's client: ``api.users.get("alice")``."""

    def __init__(self, http: HttpClient, site_url: str) -> None:
        self.http = http
        self.site_url = site_url
        self.users = UsersApi(http, site_url)
        self.tokens = TokensApi(http, site_url)
        self.orgs = OrgsApi(http, site_url)
        self.repos = ReposApi(http, site_url)
        self.contents = ContentsApi(http, site_url)
        self.misc = MiscApi(http, site_url)

    def area(self, area_class: type[AreaT]) -> AreaT:
        """Any area's operations over this facade's client (for area classes not listed here)."""
        return area_class(self.http, self.site_url)
