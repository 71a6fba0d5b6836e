"""The artifacts family: the artifact protocol (Twirp), signed blob URLs, storage and REST artifacts."""
