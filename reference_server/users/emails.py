"""A user's e-mail addresses as Gitea keeps them: the primary one (the account's ``email``) and additional
ones, unique across every user whatever the case; added ones are activated at once (Gitea's default without
``REGISTER_EMAIL_CONFIRM``). Adding or deleting a list is all or nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..context import forge
from ..errors import NotFound, Unprocessable
from . import store
from .models import User, validate_email

__all__ = ["EmailAddress", "add_emails", "delete_emails", "list_emails", "search_emails"]


@dataclass(frozen=True)
class EmailAddress:
    """One address of a user, with what Gitea's ``Email`` model shows of it."""

    email: str
    verified: bool
    primary: bool
    user_id: int
    username: str


def list_emails(user: User) -> list[EmailAddress]:
    """The primary address first (when the account has one), then the additional ones in the order added."""
    found = []
    if user.email:
        found.append(EmailAddress(user.email, user.active, True, user.id, user.name))
    for row in store.extra_emails(user.id):
        found.append(EmailAddress(row["email"], bool(row["is_activated"]), False, user.id, user.name))
    return found


def _checked(values: Sequence[object]) -> list[str]:
    """Every address valid and unused (also within the list); Gitea's 422 messages otherwise."""
    seen: set[str] = set()
    checked = []
    for value in values:
        text = value.strip() if isinstance(value, str) else value
        try:
            email = validate_email(text)
        except Unprocessable:
            raise Unprocessable(f'Email address "{value}" invalid') from None
        lower = email.lower()
        if lower in seen or store.email_taken(lower):
            raise Unprocessable(f"Email address has been used: {email}")
        seen.add(lower)
        checked.append(email)
    return checked


def add_emails(user: User, values: Sequence[object]) -> list[EmailAddress]:
    """Add the addresses (422 for an empty list, an invalid or a used one) and return all the user's."""
    if not values:
        raise Unprocessable("Email list empty")
    with forge().db.transaction():
        for email in _checked(values):
            store.insert_email(user.id, email, activated=True)
    return list_emails(user)


def delete_emails(user: User, values: Sequence[object]) -> None:
    """Remove the addresses; the primary one is refused (422) and an address the user lacks is a 404, and
    then none of the list is removed."""
    with forge().db.transaction():
        for value in values:
            email = value.strip() if isinstance(value, str) else str(value)
            if email.lower() == user.email.lower() and user.email:
                raise Unprocessable(f"Primary email address cannot be deleted [email: {email}]")
            if not store.delete_email(user.id, email.lower()):
                raise NotFound(f"Email address does not exist [email: {email}]")


def search_emails(keyword: str, limit: int, offset: int) -> tuple[list[EmailAddress], int]:
    """A page of every user's addresses (the admin's ``/admin/emails``), primary and additional, and the total."""
    rows, total = store.search_emails(keyword, limit, offset)
    found = [
        EmailAddress(row["email"], bool(row["verified"]), bool(row["is_primary"]), row["user_id"], row["username"])
        for row in rows
    ]
    return found, total
