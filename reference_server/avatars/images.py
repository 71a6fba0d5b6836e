"""Avatar pictures: decode an upload safely, crop it square and re-encode it as PNG; draw default avatars.

Gitea's rules as facts: only PNG, JPEG, GIF and WebP are accepted, at most 4096 pixels wide or high,
and the stored picture is at most 256 pixels square (``DefaultAvatarSize``). The dimensions are read
from the header before any pixel is decoded, so a huge or hostile picture costs nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import warnings

from PIL import Image, UnidentifiedImageError

from ..errors import BadRequest, PayloadTooLarge
from .errors import NotAnImage

__all__ = ["AVATAR_SIZE", "MAX_AVATAR_BYTES", "MAX_DIMENSION", "decode_base64", "default_avatar", "prepare_avatar"]

AVATAR_SIZE = 256
MAX_DIMENSION = 4096
MAX_AVATAR_BYTES = 1024 * 1024
ACCEPTED_FORMATS = frozenset({"PNG", "JPEG", "GIF", "WEBP"})
DEFAULT_GRID = 5


def decode_base64(text: str) -> bytes:
    """Standard base64 (whitespace tolerated); 400 as Gitea on anything else."""
    compact = "".join(text.split())
    try:
        return base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise BadRequest(f"illegal base64 data: {exc}") from None


def prepare_avatar(data: bytes) -> bytes:
    """The PNG to store: 413 over 1 MiB; 422 ``not a valid image`` for anything Pillow cannot read as one
    of the accepted formats or that is too large in pixels."""
    if len(data) > MAX_AVATAR_BYTES:
        raise PayloadTooLarge(f"avatar image is too large: {len(data)} bytes > {MAX_AVATAR_BYTES}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as image:
                if image.format not in ACCEPTED_FORMATS:
                    raise NotAnImage(f"not a valid image: unsupported avatar image type {image.format or 'unknown'}")
                width, height = image.size
                if width > MAX_DIMENSION or height > MAX_DIMENSION:
                    raise NotAnImage(f"not a valid image: {width}x{height} is larger than {MAX_DIMENSION} pixels")
                if width < 1 or height < 1:
                    raise NotAnImage("not a valid image: it has no pixels")
                image.load()
                return _square_png(image)
    except UnidentifiedImageError:
        raise NotAnImage("not a valid image: the data is no PNG, JPEG, GIF or WebP picture") from None
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError) as exc:
        raise NotAnImage(f"not a valid image: {exc}") from None
    except Image.DecompressionBombWarning as exc:
        raise NotAnImage(f"not a valid image: {exc}") from None


def _square_png(image: Image.Image) -> bytes:
    """Crop the centre square, shrink it to ``AVATAR_SIZE`` when larger, and encode PNG (metadata dropped)."""
    rgba = image.convert("RGBA")
    side = min(rgba.size)
    left = (rgba.width - side) // 2
    top = (rgba.height - side) // 2
    square = rgba.crop((left, top, left + side, top + side))
    if side > AVATAR_SIZE:
        square = square.resize((AVATAR_SIZE, AVATAR_SIZE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    square.save(out, format="PNG", optimize=True)
    return out.getvalue()


def default_avatar(seed: str) -> bytes:
    """A symmetric 5x5 identicon drawn from the seed, the picture behind an account's default avatar URL."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    colour = (digest[0] // 2 + 32, digest[1] // 2 + 32, digest[2] // 2 + 32, 255)
    grid = Image.new("RGBA", (DEFAULT_GRID, DEFAULT_GRID), (255, 255, 255, 0))
    half = (DEFAULT_GRID + 1) // 2
    for row in range(DEFAULT_GRID):
        for column in range(half):
            if digest[3 + row * half + column] % 2:
                grid.putpixel((column, row), colour)
                grid.putpixel((DEFAULT_GRID - 1 - column, row), colour)
    picture = grid.resize((AVATAR_SIZE, AVATAR_SIZE), Image.Resampling.NEAREST)
    out = io.BytesIO()
    picture.save(out, format="PNG")
    return out.getvalue()
