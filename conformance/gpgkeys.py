"""OpenPGP keys made on the fly for the GPG key scenarios (with ``pgpy``): an Ed25519 primary key that signs
and certifies, with one user id per address and an X25519 subkey that encrypts, and detached signatures of a
text, armored as ``gpg --armor --detach-sign`` writes them."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from datetime import timedelta

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # pgpy imports the deprecated ``imghdr``
    import pgpy
    from pgpy.constants import EllipticCurveOID, HashAlgorithm, KeyFlags, PubKeyAlgorithm

__all__ = ["GpgKeyPair", "make_key"]


@dataclass(frozen=True)
class GpgKeyPair:
    """A secret key kept by the scenario and what a forge sees of it."""

    key: pgpy.PGPKey

    @property
    def armored_public(self) -> str:
        return str(self.key.pubkey)

    @property
    def key_id(self) -> str:
        """The primary key's id: the last 16 hexadecimal digits of its fingerprint, in capitals."""
        return str(self.key.fingerprint.keyid).upper()

    @property
    def subkey_ids(self) -> list[str]:
        return [str(sub).upper() for sub in self.key.subkeys]

    def sign(self, text: str) -> str:
        """An armored detached signature of ``text`` by the primary key."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return str(self.key.sign(text))


def make_key(name: str, emails: list[str], *, expires_in: timedelta | None = None) -> GpgKeyPair:
    """A fresh key pair whose user ids carry ``emails`` (the first is the primary user id)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        key = pgpy.PGPKey.new(PubKeyAlgorithm.EdDSA, EllipticCurveOID.Ed25519)
        for index, email in enumerate(emails or [""]):
            uid = pgpy.PGPUID.new(name, email=email) if email else pgpy.PGPUID.new(name)
            key.add_uid(
                uid,
                usage={KeyFlags.Sign, KeyFlags.Certify},
                hashes=[HashAlgorithm.SHA256],
                primary=index == 0,
                key_expiration=expires_in,
            )
        sub = pgpy.PGPKey.new(PubKeyAlgorithm.ECDH, EllipticCurveOID.Curve25519)
        key.add_subkey(sub, usage={KeyFlags.EncryptCommunications, KeyFlags.EncryptStorage})
    return GpgKeyPair(key)
